package org.strata.lsm.component;

import java.io.IOException;
import java.nio.ByteBuffer;
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
 * operations a {@link DiskComponent}'s index points at. The index file's leaf values are {@link
 * #POINTER_BYTES}-byte operation pointers ({@code operationOffset:u64, operationLength:u32,
 * crc32c:u32}, big-endian) into this one segment; {@link #resolve} reads the operation's bytes
 * alone, checks them against the pointer's CRC32C and returns its value. The key of the
 * operation must equal the index key, so a pointer that lands on another operation is refused
 * too. Wrong data is never returned: damaged bytes fail the read with a {@link
 * CorruptionException} naming the segment file and offset. Every read and the deletion go through
 * the store's {@link FileIo}, as a disk component's do.
 *
 * <p>CL-SSTables written before operation pointers hold {@link #RECORD_POINTER_BYTES}-byte record
 * pointers ({@code recordOffset:u64, opIndex:u32}); they are told apart by their length and read
 * as before, by reading and checking the whole record.
 */
public final class LogSegmentValues {
  private static final Logger LOG = LogManager.getLogger(LogSegmentValues.class);

  /** Bytes of one operation pointer in an index leaf. */
  public static final int POINTER_BYTES = 16;
  /**
   * Bytes of one record pointer, in the index of a CL-SSTable written before operation pointers.
   */
  public static final int RECORD_POINTER_BYTES = 12;

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

  /**
   * The pointer to the operation of {@code length} bytes at {@code offset} whose bytes have the
   * CRC32C {@code crc}.
   */
  public static byte[] pointer(long offset, int length, int crc) {
    byte[] p = new byte[POINTER_BYTES];
    BigEndian.putLong(p, 0, offset);
    BigEndian.putInt(p, 8, length);
    BigEndian.putInt(p, 12, crc);
    return p;
  }

  /**
   * The record pointer to operation {@code index} of the record at {@code recordOffset}, as
   * CL-SSTables written before operation pointers hold (written by tests of their reading only).
   */
  public static byte[] recordPointer(long recordOffset, int index) {
    byte[] p = new byte[RECORD_POINTER_BYTES];
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
   * The value that {@code pointer}, the index's value for {@code key}, points at (null if a record
   * pointer's operation is a delete).
   *
   * @param indexFile the index file, named in the error of a malformed pointer
   * @throws CorruptionException if the pointer is malformed, or the bytes it points at are damaged
   *     or hold another key (or, for an operation pointer, a delete)
   */
  public byte[] resolve(byte[] key, byte[] pointer, Path indexFile) {
    int length = pointer == null ? -1 : pointer.length;
    checkPointerLength(length, indexFile);
    if (length == RECORD_POINTER_BYTES) {
      long offset = BigEndian.getLong(pointer, 0);
      int index = BigEndian.getInt(pointer, 8);
      LogOp op = readRecord(offset, index);
      if (!Arrays.equals(op.key(), key)) {
        throw new CorruptionException(path, offset, "log record operation " + index
            + " holds another key than the CL-SSTable index " + indexFile.getFileName()
            + " says");
      }
      return op.value();
    }
    long offset = BigEndian.getLong(pointer, 0);
    int opLength = BigEndian.getInt(pointer, 8);
    int crc = BigEndian.getInt(pointer, 12);
    LogRecordLocator.Operation op = readOperation(offset, opLength, crc);
    return checked(op, key, offset, indexFile).value();
  }

  /**
   * Refuses a pointer of {@code length} bytes (-1: none) that is neither an operation pointer nor
   * a record pointer, naming {@code indexFile}.
   */
  static void checkPointerLength(int length, Path indexFile) {
    if (length != POINTER_BYTES && length != RECORD_POINTER_BYTES) {
      throw new CorruptionException(indexFile, -1, "CL-SSTable index entry holds a log pointer"
          + " of " + (length < 0 ? "no" : length) + " bytes: this build reads operation"
          + " pointers of " + POINTER_BYTES + " bytes and the record pointers of "
          + RECORD_POINTER_BYTES + " bytes that CL-SSTables written before them hold");
    }
  }

  /**
   * Checks that {@code op}, read at {@code offset} for the index entry of {@code key}, is an
   * upsert of that key.
   */
  LogRecordLocator.Operation checked(LogRecordLocator.Operation op, byte[] key, long offset,
      Path indexFile) {
    if (!op.hasKey(key)) {
      throw new CorruptionException(path, offset, "log operation holds another key than the"
          + " CL-SSTable index " + indexFile.getFileName() + " says");
    }
    if (op.isDelete()) {
      throw new CorruptionException(path, offset, "log operation is a delete where the"
          + " CL-SSTable index " + indexFile.getFileName() + " holds an upsert");
    }
    return op;
  }

  private LogRecordLocator.Operation readOperation(long offset, int length, int crc) {
    for (int attempt = 0; ; attempt++) {
      try {
        return LogRecordLocator.readOperation(file, path, offset, length, crc);
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

  private LogOp readRecord(long offset, int index) {
    for (int attempt = 0; ; attempt++) {
      try {
        return LogRecordLocator.read(file, path, offset, index);
      } catch (ClosedChannelException e) {
        if (attempt > 0) {
          throw new StorageException("cannot read " + path + ": channel closed", e);
        }
        reopen();
      } catch (IOException e) {
        throw new StorageException("cannot read " + path + " at offset " + offset + ": " + e, e);
      }
    }
  }

  /**
   * Reads the {@code length} bytes at {@code offset} of the segment into {@code into} (a scan's
   * sequential read; the caller keeps the range inside the segment).
   */
  void readFully(long offset, byte[] into, int length) {
    for (int attempt = 0; ; attempt++) {
      try {
        ByteBuffer b = ByteBuffer.wrap(into, 0, length);
        while (b.hasRemaining()) {
          if (file.read(b, offset + b.position()) < 0) {
            throw new CorruptionException(path, offset + b.position(), "the log segment ends"
                + " before its size of " + size + " bytes");
          }
        }
        return;
      } catch (ClosedChannelException e) {
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
