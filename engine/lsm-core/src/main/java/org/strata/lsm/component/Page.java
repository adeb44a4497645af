package org.strata.lsm.component;

import static org.strata.lsm.io.BigEndian.getInt;
import static org.strata.lsm.io.BigEndian.getLong;

import java.util.Arrays;

/**
 * A decoded, checksum-verified page body: a leaf (keys with values or anti-matter) or an interior
 * page (separator keys with child page addresses). Entries are reached through an offset array, so
 * lookups binary-search without decoding the whole page. Immutable; shared through the page cache.
 *
 * <p>Layout of a body (see docs/format.md): {@code count:u32}, the entries, then {@code
 * offsets:u32[count]} giving each entry's position in the body. The body is read in place from
 * an array that may hold more than it (the framed page as read from the file, or a merge's read
 * buffer), starting at {@code base}.
 */
public final class Page {
  /** Entry kind byte of a leaf entry that carries a value. */
  public static final byte KIND_VALUE = 0;
  /** Entry kind byte of a leaf entry that is anti-matter (a delete marker). */
  public static final byte KIND_ANTIMATTER = 1;

  private final PageType type;
  /** The array holding the body, at {@code base}; positions below are indexes into it. */
  private final byte[] body;
  private final int base;
  private final int count;
  /** Index in {@code body} of the offset array. */
  private final int offsetsStart;

  /** A page whose body is all of {@code body}. */
  Page(PageType type, byte[] body) {
    this(type, body, 0, body.length);
  }

  /** A page whose body is {@code buf[base, base+length)}, read in place (not copied). */
  Page(PageType type, byte[] buf, int base, int length) {
    this.type = type;
    this.body = buf;
    this.base = base;
    if (length < 4) {
      throw new IllegalArgumentException("page body shorter than its count");
    }
    this.count = getInt(buf, base);
    long start = (long) base + length - 4L * count;
    if (count < 0 || start < base + 4L) {
      throw new IllegalArgumentException("page entry count " + count + " does not fit its body");
    }
    this.offsetsStart = (int) start;
  }

  public PageType type() {
    return type;
  }

  /** Number of entries. */
  public int count() {
    return count;
  }

  /**
   * Approximate memory held, for the page cache's budget: the whole array the page reads from
   * (for a page read from a file, its framed bytes) and the object.
   */
  public int weight() {
    return body.length + 48;
  }

  private int entryOffset(int i) {
    return base + getInt(body, offsetsStart + 4 * i);
  }

  /** Unsigned comparison of entry {@code i}'s key with {@code key}. */
  public int compareKey(int i, byte[] key) {
    long kv = Varint.get(body, entryOffset(i));
    int pos = (int) (kv >>> 32);
    int len = (int) kv;
    return Arrays.compareUnsigned(body, pos, pos + len, key, 0, key.length);
  }

  /** Entry {@code i}'s key, copied. */
  public byte[] key(int i) {
    long kv = Varint.get(body, entryOffset(i));
    int pos = (int) (kv >>> 32);
    return Arrays.copyOfRange(body, pos, pos + (int) kv);
  }

  private int afterKey(int i) {
    long kv = Varint.get(body, entryOffset(i));
    return (int) (kv >>> 32) + (int) kv;
  }

  /** Leaf entry {@code i} is anti-matter. */
  public boolean isAntimatter(int i) {
    return body[afterKey(i)] == KIND_ANTIMATTER;
  }

  /** Leaf entry {@code i}'s value, copied; null for anti-matter. */
  public byte[] value(int i) {
    int p = afterKey(i);
    if (body[p] == KIND_ANTIMATTER) {
      return null;
    }
    long vv = Varint.get(body, p + 1);
    int pos = (int) (vv >>> 32);
    return Arrays.copyOfRange(body, pos, pos + (int) vv);
  }

  /**
   * Where leaf entry {@code i}'s value lies in {@link #array()}, without copying it: its position
   * in the high 32 bits and its length in the low 32 bits; -1 for anti-matter.
   */
  long valueSlice(int i) {
    int p = afterKey(i);
    if (body[p] == KIND_ANTIMATTER) {
      return -1;
    }
    return Varint.get(body, p + 1);
  }

  /** The array the page reads from (see {@link #valueSlice}); never modified through a page. */
  byte[] array() {
    return body;
  }

  /** Interior entry {@code i}'s child page offset. */
  public long childOffset(int i) {
    return getLong(body, afterKey(i));
  }

  /** Interior entry {@code i}'s child page length (whole page, header and checksum included). */
  public int childLength(int i) {
    return getInt(body, afterKey(i) + 8);
  }

  /**
   * Index of the first entry whose key is >= {@code key}, or {@link #count()} if none: a leaf
   * lookup's position.
   */
  public int lowerBound(byte[] key) {
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareKey(mid, key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Index of the child of an interior page that may hold {@code key}: the last entry whose
   * separator is <= key, or 0 when key is below every separator.
   */
  public int childIndexFor(byte[] key) {
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareKey(mid, key) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return Math.max(0, lo - 1);
  }
}
