package org.strata.lsm.component;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.StorageException;
import org.strata.lsm.wal.LogRecordLocator;

/**
 * Reads a component's leaf pages in file order with large reads, bypassing the page cache: the
 * input side of a merge. Every page's checksum is verified. Counts pages consumed so a merge can
 * report its remaining input pages.
 *
 * <p>It reads into a {@link ReadAheadBuffer} it does not own and decodes each page in place there;
 * {@link #key} and {@link #value} are copies, valid after the scanner moves on or is closed. The
 * value is copied only when asked for: a merge takes it as a slice of the read buffer ({@link
 * #valueArray}), which holds it until the scanner moves on, and writes it out from there.
 *
 * <p>Over a CL-SSTable (TRIAD-LOG) the leaves hold operation pointers into the log segment: at
 * its first entry the scanner reads the operations of the whole index from the segment in one
 * sequential pass ({@link SegmentScanValues}), and each value is then checked against its pointer
 * and given as a slice of those bytes. An index of record pointers (written before operation
 * pointers) is read value by value, as a point read reads it.
 */
public final class SequentialLeafScanner implements EntryCursor {
  private final DiskComponent component;
  private final long end;
  private final ReadAheadBuffer readAhead;
  private byte[] buf;
  private int bufEnd;
  private long bufFileOffset;
  private long nextPageOffset;
  private Page leaf;
  private int idx;
  private long pagesRead;
  private byte[] key;
  /** The current value's copy once {@link #value} made it (null for anti-matter). */
  private byte[] value;
  private boolean valueCopied = true;
  /** The current value's place in {@code leaf.array()}, as {@link Page#valueSlice}; -1: none. */
  private long slice = -1;
  /** The log segment whose values the leaves point at; null for a B+-tree or raw leaf values. */
  private final LogSegmentValues segment;
  /** A CL-SSTable's values, read at the first entry; null before, after the end, or if not read. */
  private SegmentScanValues segmentValues;
  private boolean segmentValuesLoaded;
  /** A CL-SSTable's current value once resolved: {@code resolvedLength} bytes at the offset. */
  private byte[] resolvedArray;
  private int resolvedOffset;
  private int resolvedLength;
  private boolean resolved;

  SequentialLeafScanner(DiskComponent component, ReadAheadBuffer readAhead) {
    this(component, readAhead, true);
  }

  /**
   * @param resolve whether a CL-SSTable's values are the values its pointers point at (else the
   *     leaves' own values, the pointers, as for a B+-tree)
   */
  SequentialLeafScanner(DiskComponent component, ReadAheadBuffer readAhead, boolean resolve) {
    this.component = component;
    this.readAhead = readAhead;
    this.segment = resolve ? component.logSegment() : null;
    this.end = component.meta().leafEnd();
    this.nextPageOffset = component.meta().leafStart();
    this.bufFileOffset = nextPageOffset;
  }

  /** Leaf pages consumed so far. */
  public long pagesRead() {
    return pagesRead;
  }

  @Override
  public boolean next() {
    if (segment != null && !segmentValuesLoaded) {
      // before any leaf is read into the buffer: the load uses it too
      segmentValuesLoaded = true;
      segmentValues = SegmentScanValues.load(component, readAhead);
    }
    while (leaf == null || ++idx >= leaf.count()) {
      if (nextPageOffset >= end) {
        key = null;
        value = null;
        valueCopied = true;
        slice = -1;
        segmentValues = null; // the scan is over: its memory can go
        resolvedArray = null;
        resolved = false;
        return false;
      }
      leaf = readPage();
      idx = -1;
    }
    key = leaf.key(idx);
    value = null;
    valueCopied = false;
    resolved = false;
    resolvedArray = null;
    // a CL-SSTable's leaf holds a log pointer, not the value: its value is always resolved
    slice = segment == null ? leaf.valueSlice(idx) : -1;
    return true;
  }

  /** Resolves a CL-SSTable's current value into {@code resolved*}. */
  private void resolve() {
    if (resolved) {
      return;
    }
    long pointer = leaf.valueSlice(idx);
    LogRecordLocator.Operation op = null;
    if (segmentValues != null && pointer >= 0 && (int) pointer == LogSegmentValues.POINTER_BYTES) {
      op = segmentValues.operation(key, leaf.array(), (int) (pointer >>> 32), component.path());
    }
    if (op != null) {
      resolvedArray = op.buf();
      resolvedOffset = op.valueAt();
      resolvedLength = op.valueLength();
      value = null;
      valueCopied = false;
    } else { // not read by the load (record pointers): read from the segment, as a point read
      value = component.resolve(key, leaf.value(idx));
      valueCopied = true;
      resolvedArray = value;
      resolvedOffset = 0;
      resolvedLength = value == null ? 0 : value.length;
    }
    resolved = true;
  }

  @Override
  public void close() {
    segmentValues = null;
    resolvedArray = null;
  }

  private Page readPage() {
    long offset = nextPageOffset;
    ensure(offset, 5);
    int at = (int) (offset - bufFileOffset);
    long framed = PageCodec.framedLength(buf, at);
    if (framed > end - offset || framed > Integer.MAX_VALUE) {
      throw new CorruptionException(component.path(), offset,
          "page length " + framed + " runs past the leaf region");
    }
    ensure(offset, (int) framed);
    at = (int) (offset - bufFileOffset);
    Page p = PageCodec.decode(buf, at, (int) framed, PageType.LEAF, component.path(), offset);
    nextPageOffset = offset + framed;
    pagesRead++;
    return p;
  }

  /** Makes {@code buf} hold file bytes [offset, offset + len). */
  private void ensure(long offset, int len) {
    if (buf != null && offset >= bufFileOffset && offset + len <= bufFileOffset + bufEnd) {
      return;
    }
    int want = (int) Math.min(Math.max(len, ReadAheadBuffer.DEFAULT_SIZE), end - offset);
    if (want < len) {
      throw new CorruptionException(component.path(), offset, "page runs past the leaf region");
    }
    buf = readAhead.array(want);
    try {
      ByteBuffer b = ByteBuffer.wrap(buf, 0, want);
      while (b.hasRemaining()) {
        int n = component.channel().read(b, offset + b.position());
        if (n < 0) {
          throw new CorruptionException(component.path(), offset + b.position(),
              "file ends inside the leaf region");
        }
      }
    } catch (IOException e) {
      throw new StorageException("cannot read " + component.path() + ": " + e, e);
    }
    bufFileOffset = offset;
    bufEnd = want;
  }

  @Override
  public byte[] key() {
    return key;
  }

  @Override
  public byte[] value() {
    if (!valueCopied) {
      if (segment == null) {
        value = leaf.value(idx);
      } else {
        resolve();
        if (!valueCopied) {
          value = Arrays.copyOfRange(resolvedArray, resolvedOffset,
              resolvedOffset + resolvedLength);
        }
      }
      valueCopied = true;
    }
    return value;
  }

  @Override
  public boolean isAntimatter() {
    return key == null || leaf.isAntimatter(idx);
  }

  @Override
  public byte[] valueArray() {
    if (segment != null && key != null) {
      resolve();
      return resolvedArray;
    }
    return slice >= 0 ? leaf.array() : value();
  }

  @Override
  public int valueOffset() {
    if (segment != null && key != null) {
      resolve();
      return resolvedOffset;
    }
    return slice >= 0 ? (int) (slice >>> 32) : 0;
  }

  @Override
  public int valueLength() {
    if (segment != null && key != null) {
      resolve();
      return resolvedLength;
    }
    return slice >= 0 ? (int) slice : EntryCursor.super.valueLength();
  }
}
