package org.strata.lsm;

import java.nio.file.Path;

/** Stored data failed a check (checksum, magic, order); the data is never served. */
public class CorruptionException extends StrataException {
  private static final long serialVersionUID = 1L;
  private final transient Path file;
  private final long offset;

  public CorruptionException(Path file, long offset, String what) {
    super("corrupt data in " + file + (offset >= 0 ? " at offset " + offset : "") + ": " + what);
    this.file = file;
    this.offset = offset;
  }

  /** The file holding the bad data. */
  public Path file() {
    return file;
  }

  /** Byte offset of the bad page or record, or -1 when not tied to one. */
  public long offset() {
    return offset;
  }
}
