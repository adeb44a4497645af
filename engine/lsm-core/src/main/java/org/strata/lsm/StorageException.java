package org.strata.lsm;

import java.nio.file.Path;

/** An I/O operation (write, force, rename, read) failed; the cause holds the underlying error. */
public class StorageException extends StrataException {
  private static final long serialVersionUID = 1L;
  private final transient Path path;

  public StorageException(String message, Throwable cause) {
    this(null, message, cause);
  }

  /** @param path the file or directory the failed operation was on, or null */
  public StorageException(Path path, String message, Throwable cause) {
    super(message, cause);
    this.path = path;
  }

  /** The file or directory the failed operation was on, or null if not known. */
  public Path path() {
    return path;
  }
}
