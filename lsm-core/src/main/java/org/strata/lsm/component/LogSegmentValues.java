package org.strata.lsm.component;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.BigEndian;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.ReadableFile;
import org.strata.lsm.wal.LogOp;
import org.strata.lsm.wal.LogRecordLocator;

/**
 * The values of a CL-SSTable (TRIAD-LOG, docs/format.md): a sealed commit-log segment whose
 * records a {@link DiskComponent}'s index points into. The index file's leaf values are {@link
 * #POINTER_BYTES}-byte log pointers ({@code recordOffset:u64, opIndex:u32}, big-endian) into this
 * one segment; {@link #resolve} reads the record at the offset, checks its CRC32C and returns the
 * operation's value. The key of the operation must equal the index key, so a pointer that lands on
 * another record is refused too. Wrong data is never returned: a damaged record fails the read
 * with a {@link CorruptionException} naming the segment file and offset. Every read and the
 * deletion go through the store's {@link FileIo}, as a disk component's do.
 */
public final class LogSegmentValues {
  private static final Logger LOG = LogManager.getLogger(LogSegmentValues.class);

  /** Bytes of one log pointer in an index leaf. */
  public static final int POINTER_BYTES = 12;

  private final Path path;
  private final FileIo io;
  private final long size;
  private volatile ReadableFile file;

  private LogSegmentValues(Path path, FileIo io, ReadableFile file) throws IOException {
    this.path = path;
    this.io = io;
    this.file = file;
    this.size = file.size();
  }

  /**
   * Opens the segment file {@code path} for reading through {@code io}.
   *
   * @throws CorruptionException naming the segment if it is missing
   */
  public static LogSegmentValues open(Path path, FileIo io) {
    if (!Files.exists(path)) {
      throw new CorruptionException(path, -1, "the log segment of a CL-SSTable is missing");
    }
    ReadableFile f = null;
    try {
      f = io.openForRead(path);
      return new LogSegmentValues(path, io, f);
    } catch (IOException e) {
      if (f != null) {
        try {
          f.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw new StorageException("cannot open log segment " + path + ": " + e, e);
    }
  }

  /** The log pointer to operation {@code index} of the record at {@code recordOffset}. */
  public static byte[] pointer(long recordOffset, int index) {
    byte[] p = new byte[POINTER_BYTES];
    BigEndian.putLong(p, 0, recordOffset);
    BigEndian.putInt(p, 8, index);
    return p;
  }

  /** Bytes of the segment file (sealed: it does not change). */
  public long sizeBytes() {
    return size;
  }

  /** The segment file. */
  public Path path() {
    return path;
  }

  /**
   * The value that {@code pointer}, the index's value for {@code key}, points at (null if the
   * operation there is a delete).
   *
   * @param indexFile the index file, named in the error of a malformed pointer
   * @throws CorruptionException if the pointer is malformed or the record is damaged or holds
   *     another key
   */
  public byte[] resolve(byte[] key, byte[] pointer, Path indexFile) {
    if (pointer == null || pointer.length != POINTER_BYTES) {
      throw new CorruptionException(indexFile, -1, "CL-SSTable index entry holds a log pointer"
          + " of " + (pointer == null ? "no" : pointer.length) + " bytes, not "
          + POINTER_BYTES);
    }
    long offset = BigEndian.getLong(pointer, 0);
    int index = BigEndian.getInt(pointer, 8);
    LogOp op = read(offset, index);
    if (!Arrays.equals(op.key(), key)) {
      throw new CorruptionException(path, offset, "log record operation " + index
          + " holds another key than the CL-SSTable index " + indexFile.getFileName()
          + " says");
    }
    return op.value();
  }

  private LogOp read(long offset, int index) {
    for (int attempt = 0; ; attempt++) {
      try {
        return LogRecordLocator.read(file, path, offset, index);
      } catch (ClosedChannelException e) {
        // An interrupted reader closes a FileChannel for everyone; reopen once and retry.
        if (attempt > 0) {
          throw new StorageException("cannot read " + path + ": channel closed", e);
        }
        reopen();
      } catch (IOException e) {
        throw new StorageException("cannot read " + path + " at offset " + offset + ": " + e, e);
      }
    }
  }

  private synchronized void reopen() {
    if (!file.isOpen()) {
      try {
        file = io.openForRead(path);
      } catch (IOException e) {
        throw new StorageException("cannot reopen " + path + ": " + e, e);
      }
    }
  }

  /** Closes the file; deletes it too when {@code delete} (its CL-SSTable was merged away). */
  void close(boolean delete) {
    try {
      file.close();
    } catch (IOException e) {
      LOG.warn("cannot close {}: {}", path, e.toString());
    }
    if (delete) {
      try {
        io.delete(path);
      } catch (IOException e) {
        LOG.warn("cannot delete the log segment {} of an obsolete CL-SSTable: {}", path,
            e.toString());
      }
    }
  }
}
