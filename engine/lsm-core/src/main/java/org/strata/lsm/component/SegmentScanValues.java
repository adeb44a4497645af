package org.strata.lsm.component;

import java.nio.file.Path;
import java.util.Arrays;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.io.BigEndian;
import org.strata.lsm.wal.LogRecordLocator;

/**
 * The values of a CL-SSTable (TRIAD-LOG) for a scan that takes every entry in key order (a
 * merge's input, {@code verify}), read from its log segment in one sequential pass instead of one
 * read per entry at the offsets the keys' order gives (docs/format.md).
 *
 * <p>{@link #load} first reads the index's leaf pages and collects every operation pointer, sorts
 * them by offset, then reads the operations in that order with large reads into the scan's {@link
 * ReadAheadBuffer}: a read starts at the first operation not yet read and fills the buffer, so
 * every byte of the segment is read at most once (but for an operation the end of a read cuts,
 * which the next read starts with), and a stretch of the segment longer than the buffer that
 * holds no operation of the index (stale versions, hot keys' records) is skipped.
 * Each operation's bytes are copied into one array. Nothing is checked there: the scan checks an
 * operation against its pointer (CRC32C, parse, key) when it reaches its entry, as a point read
 * does, so a damaged operation fails that entry, naming the segment and the offset.
 *
 * <p>Memory: one array of the bytes of the operations the index points at (at most the segment's
 * size, which is about one memory component's), plus 16 bytes per entry (sorted offsets, lengths
 * and positions), held from the scan's first entry until its end or close. The index's leaf pages
 * are read twice (the index is small: no value byte); the segment once.
 */
final class SegmentScanValues {
  private static final Logger LOG = LogManager.getLogger(SegmentScanValues.class);

  /** The most operation bytes one scan holds: the largest Java array, with a margin. */
  static final long MAX_BYTES = Integer.MAX_VALUE - 64;

  private final LogSegmentValues segment;
  private final int count;
  private final long[] offsets;
  private final int[] lengths;
  private final int[] positions;
  private final byte[] bytes;

  private SegmentScanValues(LogSegmentValues segment, int count, long[] offsets, int[] lengths,
      int[] positions, byte[] bytes) {
    this.segment = segment;
    this.count = count;
    this.offsets = offsets;
    this.lengths = lengths;
    this.positions = positions;
    this.bytes = bytes;
  }

  /**
   * Reads the operations {@code component}'s index points at, using {@code readAhead} (which no
   * other scanner may use meanwhile). Returns null when the scan must read value by value instead:
   * the index holds record pointers (a CL-SSTable written before operation pointers), or its
   * operations are too many bytes for one array.
   *
   * @throws org.strata.lsm.CorruptionException if a leaf page of the index is damaged
   */
  static SegmentScanValues load(DiskComponent component, ReadAheadBuffer readAhead) {
    LogSegmentValues segment = component.logSegment();
    long size = segment.sizeBytes();
    int capacity = (int) Math.max(16, Math.min(component.meta().entryCount(), 1 << 20));
    long[] offsets = new long[capacity];
    int[] lengths = new int[capacity];
    int n = 0;
    long total = 0;
    int longest = 0;
    try (SequentialLeafScanner index = new SequentialLeafScanner(component, readAhead, false)) {
      while (index.next()) {
        if (index.isAntimatter()) {
          continue;
        }
        int pointerLength = index.valueLength();
        if (pointerLength == LogSegmentValues.RECORD_POINTER_BYTES) {
          return null; // the whole record is read for each value; nothing to gather
        }
        if (pointerLength != LogSegmentValues.POINTER_BYTES) {
          continue; // the scan's read of this entry refuses the pointer
        }
        byte[] a = index.valueArray();
        int at = index.valueOffset();
        long offset = BigEndian.getLong(a, at);
        int length = BigEndian.getInt(a, at + 8);
        if (offset < 0 || length < LogRecordLocator.MIN_OPERATION_BYTES
            || offset > size - length) {
          continue; // outside the segment: the scan's read of this entry refuses it
        }
        if (n == offsets.length) {
          offsets = Arrays.copyOf(offsets, n * 2);
          lengths = Arrays.copyOf(lengths, n * 2);
        }
        offsets[n] = offset;
        lengths[n] = length;
        n++;
        total += length;
        longest = Math.max(longest, length);
      }
    }
    if (total > MAX_BYTES) {
      LOG.info("the values of CL-SSTable {} are {} bytes, more than one array holds: the scan"
          + " reads them one by one", component.path().getFileName(), total);
      return null;
    }
    sort(offsets, lengths, 0, n);
    byte[] bytes = new byte[(int) total];
    int[] positions = new int[n];
    byte[] buf = readAhead.array(longest);
    long windowStart = 0;
    long windowEnd = 0;
    int pos = 0;
    for (int i = 0; i < n; i++) {
      long offset = offsets[i];
      int length = lengths[i];
      if (offset < windowStart || offset + length > windowEnd) {
        int want = (int) Math.min(buf.length, size - offset); // at least length: checked above
        segment.readFully(offset, buf, want);
        windowStart = offset;
        windowEnd = offset + want;
      }
      System.arraycopy(buf, (int) (offset - windowStart), bytes, pos, length);
      positions[i] = pos;
      pos += length;
    }
    return new SegmentScanValues(segment, n, offsets, lengths, positions, bytes);
  }

  /**
   * The operation that the operation pointer {@code pointer[at, at + 16)}, the index's value for
   * {@code key}, points at, checked as {@link LogSegmentValues#resolve} checks it; null if {@link
   * #load} did not read it (the caller then reads it from the segment).
   *
   * @throws org.strata.lsm.CorruptionException naming the segment and offset if the bytes fail
   *     their checksum, do not parse, hold another key or a delete
   */
  LogRecordLocator.Operation operation(byte[] key, byte[] pointer, int at, Path indexFile) {
    long offset = BigEndian.getLong(pointer, at);
    int length = BigEndian.getInt(pointer, at + 8);
    int crc = BigEndian.getInt(pointer, at + 12);
    int i = Arrays.binarySearch(offsets, 0, count, offset);
    if (i < 0 || lengths[i] != length) {
      return null;
    }
    return segment.checked(LogRecordLocator.checkOperation(bytes, positions[i], length, crc,
        segment.path(), offset), key, offset, indexFile);
  }

  /** Sorts {@code offsets[from, to)} ascending, moving {@code lengths} along. */
  static void sort(long[] offsets, int[] lengths, int from, int to) {
    while (to - from > 16) {
      int mid = (from + to) >>> 1;
      long pivot = median(offsets[from], offsets[mid], offsets[to - 1]);
      int i = from;
      int j = to - 1;
      while (i <= j) {
        while (offsets[i] < pivot) {
          i++;
        }
        while (offsets[j] > pivot) {
          j--;
        }
        if (i <= j) {
          swap(offsets, lengths, i++, j--);
        }
      }
      // recurse into the smaller part, loop on the larger: the stack stays logarithmic
      if (j + 1 - from < to - i) {
        sort(offsets, lengths, from, j + 1);
        from = i;
      } else {
        sort(offsets, lengths, i, to);
        to = j + 1;
      }
    }
    for (int i = from + 1; i < to; i++) {
      for (int j = i; j > from && offsets[j - 1] > offsets[j]; j--) {
        swap(offsets, lengths, j - 1, j);
      }
    }
  }

  private static long median(long a, long b, long c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  private static void swap(long[] offsets, int[] lengths, int i, int j) {
    long o = offsets[i];
    offsets[i] = offsets[j];
    offsets[j] = o;
    int l = lengths[i];
    lengths[i] = lengths[j];
    lengths[j] = l;
  }
}
