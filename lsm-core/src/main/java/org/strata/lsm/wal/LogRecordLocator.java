package org.strata.lsm.wal;

import static org.strata.lsm.io.BigEndian.getInt;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.io.ReadableFile;

/**
 * Addresses single operations in a sealed log segment by (record offset, operation index), for
 * TRIAD-LOG, where a sealed segment serves as the data of a level-0 component (a CL-SSTable,
 * docs/format.md). {@link #locate} maps each sequence number of a segment to where its operation
 * is; {@link #read} fetches one operation, checking its record's checksum.
 */
public final class LogRecordLocator {
  private LogRecordLocator() {}

  /**
   * Where each operation of a segment is: for sequence number {@code lsn} with {@code first <= lsn
   * <= last}, {@code offsets[lsn - first]} is its record's offset and {@code indexes[lsn - first]}
   * its position in the record (-1 for a sequence number the segment does not hold).
   */
  public record Locations(long first, long last, long[] offsets, int[] indexes) {
    /** The record offset of {@code lsn}, or -1 if the segment does not hold it. */
    public long offset(long lsn) {
      return lsn < first || lsn > last || indexes[(int) (lsn - first)] < 0 ? -1
          : offsets[(int) (lsn - first)];
    }

    /** The position of {@code lsn} in its record (valid when {@link #offset} is not -1). */
    public int index(long lsn) {
      return indexes[(int) (lsn - first)];
    }
  }

  /**
   * Reads the whole sealed segment {@code segment} and locates every operation in it.
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
      return new Locations(1, 0, new long[0], new int[0]);
    }
    if (last - first >= Integer.MAX_VALUE) {
      throw new CorruptionException(segment, 0, "sequence numbers " + first + " to " + last
          + " span more than one segment can hold");
    }
    int n = (int) (last - first + 1);
    long[] offsets = new long[n];
    int[] indexes = new int[n];
    Arrays.fill(indexes, -1);
    pos = start;
    while (pos < data.length) {
      int next = LogRecordCodec.validate(data, pos, data.length);
      long lsn = LogRecordCodec.firstLsn(data, pos);
      int count = LogRecordCodec.opCount(data, pos);
      for (int i = 0; i < count; i++) {
        offsets[(int) (lsn + i - first)] = pos;
        indexes[(int) (lsn + i - first)] = i;
      }
      pos = next;
    }
    return new Locations(first, last, offsets, indexes);
  }

  /**
   * Reads operation {@code index} of the record at {@code offset} in {@code segment} (open as
   * {@code file}), checking the record's framing and checksum.
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
