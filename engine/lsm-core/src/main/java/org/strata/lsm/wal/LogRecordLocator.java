package org.strata.lsm.wal;

import static org.strata.lsm.io.BigEndian.getInt;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.io.ReadableFile;

/**
 * Addresses single operations in a sealed log segment, for TRIAD-LOG, where a sealed segment
 * serves as the data of a level-0 component (a CL-SSTable, docs/format.md). {@link #locate} maps
 * each sequence number of a segment to where its operation is: its own byte range and the CRC32C
 * of those bytes (what a CL-SSTable's pointers hold), and its record's offset and position in the
 * record (what the pointers of CL-SSTables written before held). {@link #readOperation} fetches
 * one operation by its range, reading only its bytes; {@link #read} fetches one by record offset
 * and position, reading and checking its whole record.
 */
public final class LogRecordLocator {
  /** Bytes of the smallest operation: kind and key length (a delete of an empty key). */
  public static final int MIN_OPERATION_BYTES = LogRecordCodec.MIN_OP_BYTES;

  private LogRecordLocator() {}

  /**
   * Where each operation of a segment is: for sequence number {@code lsn} with {@code first <= lsn
   * <= last} and {@code i = lsn - first}, {@code opOffsets[i]} and {@code opLengths[i]} are the
   * byte range of its operation ({@code kind, keyLength, key[, valueLength, value]}) and {@code
   * opCrcs[i]} the CRC32C of those bytes; {@code offsets[i]} is its record's offset and {@code
   * indexes[i]} its position in the record (-1 for a sequence number the segment does not hold).
   */
  public record Locations(long first, long last, long[] offsets, int[] indexes,
      long[] opOffsets, int[] opLengths, int[] opCrcs) {
    /** The record offset of {@code lsn}, or -1 if the segment does not hold it. */
    public long offset(long lsn) {
      return holds(lsn) ? offsets[(int) (lsn - first)] : -1;
    }

    /** The position of {@code lsn} in its record (valid when {@link #holds}). */
    public int index(long lsn) {
      return indexes[(int) (lsn - first)];
    }

    /** Whether the segment holds sequence number {@code lsn}. */
    public boolean holds(long lsn) {
      return lsn >= first && lsn <= last && indexes[(int) (lsn - first)] >= 0;
    }

    /** The offset of the operation of {@code lsn} in the segment (valid when {@link #holds}). */
    public long operationOffset(long lsn) {
      return opOffsets[(int) (lsn - first)];
    }

    /** The length in bytes of the operation of {@code lsn} (valid when {@link #holds}). */
    public int operationLength(long lsn) {
      return opLengths[(int) (lsn - first)];
    }

    /** The CRC32C of the operation of {@code lsn}'s bytes (valid when {@link #holds}). */
    public int operationCrc(long lsn) {
      return opCrcs[(int) (lsn - first)];
    }
  }

  /**
   * Reads the whole sealed segment {@code segment} and locates every operation in it. Each
   * record's framing and CRC32C are checked before its operations' checksums are computed, so an
   * operation's checksum is that of bytes the log wrote.
   *
   * @throws CorruptionException if a record fails its framing or checksum (a sealed segment is
   *     whole), naming the file and offset
   */
  public static Locations locate(Path segment) throws IOException {
    byte[] data = Files.readAllBytes(segment);
    SegmentHeader.Form form = SegmentHeader.read(data, new SegmentHeader[1]);
    if (form == SegmentHeader.Form.DAMAGED) {
      throw new CorruptionException(segment, 0, "the segment's header is damaged");
    }
    int start = form == SegmentHeader.Form.HEADER ? SegmentHeader.SIZE : 0;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    int pos = start;
    while (pos < data.length) {
      int next = LogRecordCodec.validate(data, pos, data.length);
      if (next < 0) {
        throw new CorruptionException(segment, pos, "log record fails its framing or checksum");
      }
      if (!LogRecordCodec.isMark(data, pos)) {
        first = Math.min(first, LogRecordCodec.firstLsn(data, pos));
        last = Math.max(last, LogRecordCodec.lastLsn(data, pos));
      }
      pos = next;
    }
    if (first > last) {
      return new Locations(1, 0, new long[0], new int[0], new long[0], new int[0], new int[0]);
    }
    if (last - first >= Integer.MAX_VALUE) {
      throw new CorruptionException(segment, 0, "sequence numbers " + first + " to " + last
          + " span more than one segment can hold");
    }
    int n = (int) (last - first + 1);
    long[] offsets = new long[n];
    int[] indexes = new int[n];
    long[] opOffsets = new long[n];
    int[] opLengths = new int[n];
    int[] opCrcs = new int[n];
    Arrays.fill(indexes, -1);
    CRC32C crc = new CRC32C();
    pos = start;
    while (pos < data.length) {
      int next = pos + LogRecordCodec.HEADER + getInt(data, pos); // validated by the first pass
      long lsn = LogRecordCodec.firstLsn(data, pos);
      int count = LogRecordCodec.opCount(data, pos);
      int op = LogRecordCodec.firstOp(pos);
      for (int i = 0; i < count; i++) {
        int end = LogRecordCodec.opEnd(data, op);
        int at = (int) (lsn + i - first);
        offsets[at] = pos;
        indexes[at] = i;
        opOffsets[at] = op;
        opLengths[at] = end - op;
        crc.reset();
        crc.update(data, op, end - op);
        opCrcs[at] = (int) crc.getValue();
        op = end;
      }
      pos = next;
    }
    return new Locations(first, last, offsets, indexes, opOffsets, opLengths, opCrcs);
  }

  /**
   * An operation checked against its pointer, in place in {@code buf}: the key is {@code
   * keyLength} bytes at {@code keyAt}, the value {@code valueLength} bytes at {@code valueAt}
   * ({@code valueLength} -1 for a delete).
   */
  public record Operation(byte[] buf, int keyAt, int keyLength, int valueAt, int valueLength) {
    /** Whether the operation is a delete. */
    public boolean isDelete() {
      return valueLength < 0;
    }

    /** Whether the operation's key is {@code key}. */
    public boolean hasKey(byte[] key) {
      return Arrays.equals(buf, keyAt, keyAt + keyLength, key, 0, key.length);
    }

    /** A copy of the value, or null for a delete. */
    public byte[] value() {
      return isDelete() ? null : Arrays.copyOfRange(buf, valueAt, valueAt + valueLength);
    }
  }

  /**
   * Reads the operation of {@code length} bytes at {@code offset} in {@code segment} (open as
   * {@code file}): only its bytes. They must have the CRC32C {@code crc} and parse as one
   * operation of exactly that length.
   *
   * @throws CorruptionException naming {@code segment} and {@code offset} if the range lies outside
   *     the segment, or the bytes fail their checksum or do not parse
   * @throws IOException if the file cannot be read
   */
  public static Operation readOperation(ReadableFile file, Path segment, long offset, int length,
      int crc) throws IOException {
    long size = file.size();
    if (offset < 0 || length < MIN_OPERATION_BYTES || offset > size - length) {
      throw new CorruptionException(segment, offset, "log operation of " + length
          + " bytes lies outside the segment of " + size + " bytes");
    }
    byte[] b = new byte[length];
    readFully(file, offset, b);
    return checkOperation(b, 0, length, crc, segment, offset);
  }

  /**
   * Checks the {@code length} bytes at {@code at} in {@code buf}, read from {@code offset} of
   * {@code segment}: their CRC32C must be {@code crc} and they must parse as one operation of
   * exactly that length.
   *
   * @throws CorruptionException naming {@code segment} and {@code offset} otherwise
   */
  public static Operation checkOperation(byte[] buf, int at, int length, int crc, Path segment,
      long offset) {
    CRC32C c = new CRC32C();
    c.update(buf, at, length);
    if ((int) c.getValue() != crc) {
      throw new CorruptionException(segment, offset, "log operation of " + length
          + " bytes fails its checksum");
    }
    int end = at + length;
    int p = at;
    if (length >= MIN_OPERATION_BYTES) {
      byte kind = buf[p++];
      int kl = getInt(buf, p);
      p += 4;
      if (kl >= 0 && kl <= end - p) {
        int keyAt = p;
        p += kl;
        if (kind == LogRecordCodec.DELETE && p == end) {
          return new Operation(buf, keyAt, kl, p, -1);
        }
        if (kind == LogRecordCodec.UPSERT && end - p >= 4) {
          int vl = getInt(buf, p);
          p += 4;
          if (vl == end - p) {
            return new Operation(buf, keyAt, kl, p, vl);
          }
        }
      }
    }
    throw new CorruptionException(segment, offset, "log operation of " + length
        + " bytes does not parse as one operation");
  }

  /**
   * Reads operation {@code index} of the record at {@code offset} in {@code segment} (open as
   * {@code file}), checking the record's framing and checksum: how the 12-byte pointers of
   * CL-SSTables written before operation pointers are read.
   *
   * @throws CorruptionException naming {@code segment} and {@code offset} if the record is damaged
   *     or has no such operation
   * @throws IOException if the file cannot be read
   */
  public static LogOp read(ReadableFile file, Path segment, long offset, int index)
      throws IOException {
    byte[] header = new byte[LogRecordCodec.MIN_RECORD];
    long size = file.size();
    if (offset < 0 || offset + header.length > size) {
      throw new CorruptionException(segment, offset, "log record lies outside the segment of "
          + size + " bytes");
    }
    readFully(file, offset, header);
    int bodyLen = getInt(header, 0);
    if (bodyLen < 12 || bodyLen > size - offset - LogRecordCodec.HEADER) {
      throw new CorruptionException(segment, offset, "log record length " + bodyLen
          + " does not fit the segment");
    }
    byte[] record = new byte[LogRecordCodec.HEADER + bodyLen];
    readFully(file, offset, record);
    LogOp[] found = new LogOp[1];
    long first = LogRecordCodec.firstLsn(record, 0);
    int end = LogRecordCodec.decode(record, 0, record.length, (lsn, op) -> {
      if (lsn == first + index) {
        found[0] = op;
      }
    }, Long.MIN_VALUE);
    if (end < 0) {
      throw new CorruptionException(segment, offset, "log record fails its framing or checksum");
    }
    if (found[0] == null) {
      throw new CorruptionException(segment, offset, "log record has no operation " + index);
    }
    return found[0];
  }

  private static void readFully(ReadableFile file, long offset, byte[] into) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(into);
    while (b.hasRemaining()) {
      if (file.read(b, offset + b.position()) < 0) {
        throw new EOFException("read past the end at " + (offset + b.position()));
      }
    }
  }
}
