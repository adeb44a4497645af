package org.strata.lsm.component;

import org.strata.lsm.io.BigEndian;

import java.nio.file.Path;
import org.strata.lsm.CorruptionException;

/**
 * The metadata page of a disk component: what its footer points to. See docs/format.md.
 *
 * @param minComponentId first flush ordinal the component covers
 * @param maxComponentId last flush ordinal the component covers
 * @param createdMillis wall-clock creation time
 * @param entryCount entries, anti-matter included
 * @param antimatterCount anti-matter entries
 * @param maxLsn highest log sequence number whose effect the component holds (0 for merges: the
 *     maximum of its inputs)
 * @param treeHeight 1 when the root is a leaf
 * @param rootOffset file offset of the root page
 * @param rootLength framed length of the root page
 * @param leafStart offset of the first leaf page (always 0)
 * @param leafEnd offset just past the last leaf page
 * @param leafPageCount number of leaf pages
 * @param pageCount number of leaf and interior pages
 * @param bloomOffset offset of the Bloom filter page
 * @param bloomLength framed length of the Bloom filter page
 * @param sketchOffset offset of the key sketch page (HyperLogLog), or 0 when there is none
 * @param sketchLength framed length of the key sketch page, 0 when there is none
 * @param minKey smallest key
 * @param maxKey largest key
 */
public record ComponentMeta(
    long minComponentId,
    long maxComponentId,
    long createdMillis,
    long entryCount,
    long antimatterCount,
    long maxLsn,
    int treeHeight,
    long rootOffset,
    int rootLength,
    long leafStart,
    long leafEnd,
    long leafPageCount,
    long pageCount,
    long bloomOffset,
    int bloomLength,
    long sketchOffset,
    int sketchLength,
    byte[] minKey,
    byte[] maxKey) {

  /** Format version written into the meta page and footer. */
  public static final int FORMAT_VERSION = 1;

  byte[] encode() {
    int n = 4 + 8 * 6 + 4 + 8 + 4 + 8 * 5 + 4 + 8 + 4 + 4 + minKey.length + 4 + maxKey.length;
    byte[] b = new byte[n];
    int p = 0;
    BigEndian.putInt(b, p, FORMAT_VERSION);
    p += 4;
    for (long v : new long[] {minComponentId, maxComponentId, createdMillis, entryCount,
        antimatterCount, maxLsn}) {
      BigEndian.putLong(b, p, v);
      p += 8;
    }
    BigEndian.putInt(b, p, treeHeight);
    p += 4;
    BigEndian.putLong(b, p, rootOffset);
    p += 8;
    BigEndian.putInt(b, p, rootLength);
    p += 4;
    for (long v : new long[] {leafStart, leafEnd, leafPageCount, pageCount, bloomOffset}) {
      BigEndian.putLong(b, p, v);
      p += 8;
    }
    BigEndian.putInt(b, p, bloomLength);
    p += 4;
    BigEndian.putLong(b, p, sketchOffset);
    p += 8;
    BigEndian.putInt(b, p, sketchLength);
    p += 4;
    BigEndian.putInt(b, p, minKey.length);
    p += 4;
    System.arraycopy(minKey, 0, b, p, minKey.length);
    p += minKey.length;
    BigEndian.putInt(b, p, maxKey.length);
    p += 4;
    System.arraycopy(maxKey, 0, b, p, maxKey.length);
    return b;
  }

  static ComponentMeta decode(byte[] b, Path file, long offset) {
    try {
      int p = 0;
      int version = BigEndian.getInt(b, p);
      if (version != FORMAT_VERSION) {
        throw new CorruptionException(file, offset, "unsupported component format version "
            + version + " (this build reads version " + FORMAT_VERSION + ")");
      }
      p += 4;
      long[] a = new long[6];
      for (int i = 0; i < 6; i++, p += 8) {
        a[i] = BigEndian.getLong(b, p);
      }
      int height = BigEndian.getInt(b, p);
      p += 4;
      long rootOff = BigEndian.getLong(b, p);
      p += 8;
      int rootLen = BigEndian.getInt(b, p);
      p += 4;
      long[] c = new long[5];
      for (int i = 0; i < 5; i++, p += 8) {
        c[i] = BigEndian.getLong(b, p);
      }
      int bloomLen = BigEndian.getInt(b, p);
      p += 4;
      long sketchOff = BigEndian.getLong(b, p);
      p += 8;
      int sketchLen = BigEndian.getInt(b, p);
      p += 4;
      int minLen = BigEndian.getInt(b, p);
      p += 4;
      byte[] min = java.util.Arrays.copyOfRange(b, p, p + minLen);
      p += minLen;
      int maxLen = BigEndian.getInt(b, p);
      p += 4;
      byte[] max = java.util.Arrays.copyOfRange(b, p, p + maxLen);
      if (p + maxLen != b.length) {
        throw new CorruptionException(file, offset, "meta page has trailing bytes");
      }
      return new ComponentMeta(a[0], a[1], a[2], a[3], a[4], a[5], height, rootOff, rootLen,
          c[0], c[1], c[2], c[3], c[4], bloomLen, sketchOff, sketchLen, min, max);
    } catch (ArrayIndexOutOfBoundsException | NegativeArraySizeException
        | IllegalArgumentException e) {
      throw new CorruptionException(file, offset, "meta page is malformed: " + e);
    }
  }
}
