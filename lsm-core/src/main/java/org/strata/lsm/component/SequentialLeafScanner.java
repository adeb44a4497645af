package org.strata.lsm.component;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.StorageException;

/**
 * Reads a component's leaf pages in file order with large reads, bypassing the page cache: the
 * input side of a merge. Every page's checksum is verified. Counts pages consumed so a merge can
 * report its remaining input pages.
 *
 * <p>It reads into a {@link ReadAheadBuffer} it does not own and decodes each page in place there;
 * {@link #key} and {@link #value} are copies, valid after the scanner moves on or is closed. The
 * value is copied only when asked for: a merge takes it as a slice of the read buffer ({@link
 * #valueArray}), which holds it until the scanner moves on, and writes it out from there.
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

  SequentialLeafScanner(DiskComponent component, ReadAheadBuffer readAhead) {
    this.component = component;
    this.readAhead = readAhead;
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
    while (leaf == null || ++idx >= leaf.count()) {
      if (nextPageOffset >= end) {
        key = null;
        value = null;
        valueCopied = true;
        slice = -1;
        return false;
      }
      leaf = readPage();
      idx = -1;
    }
    key = leaf.key(idx);
    value = null;
    valueCopied = false;
    // a CL-SSTable's leaf holds a log pointer, not the value: its value is always resolved
    slice = component.logSegment() == null ? leaf.valueSlice(idx) : -1;
    return true;
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
      value = component.resolve(key, leaf.value(idx));
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
    return slice >= 0 ? leaf.array() : value();
  }

  @Override
  public int valueOffset() {
    return slice >= 0 ? (int) (slice >>> 32) : 0;
  }

  @Override
  public int valueLength() {
    return slice >= 0 ? (int) slice : EntryCursor.super.valueLength();
  }
}
