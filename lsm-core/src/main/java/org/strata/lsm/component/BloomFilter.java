package org.strata.lsm.component;

import java.nio.ByteBuffer;

/**
 * A Bloom filter over key hashes ({@link KeyHash}). Bits and hash count follow from the entry count
 * and target false-positive rate p: bits = -n ln p / (ln 2)^2, hashes = round(bits / n * ln 2). Probe
 * positions use double hashing of the 64-bit hash (Kirsch and Mitzenmacher): probe i reads bit
 * (h1 + i·h2) mod bits, the sum taken in unsigned 64-bit arithmetic (docs/format.md). The positions
 * are stepped from one to the next with two divisions per key instead of one per probe.
 */
public final class BloomFilter {
  private final long[] words;
  private final long bitCount;
  private final int hashCount;
  /** 2^64 mod bitCount: what a wrap of the unsigned 64-bit sum takes off its remainder. */
  private final long wrap;

  private BloomFilter(long[] words, long bitCount, int hashCount) {
    this.words = words;
    this.bitCount = bitCount;
    this.hashCount = hashCount;
    this.wrap = (Long.remainderUnsigned(-1L, bitCount) + 1) % bitCount;
  }

  /** The second hash of double hashing: the halves of {@code hash} swapped, the low bit set. */
  private static long secondHash(long hash) {
    return (hash >>> 32) | (hash << 32) | 1;
  }

  /**
   * The position after {@code bit}, the remainder of the unsigned sum {@code sum}: the remainder of
   * {@code sum + h2}, given {@code step} = h2 mod bitCount. Positions are below bitCount (under
   * 2^38), so nothing here overflows a signed long.
   */
  private long nextBit(long bit, long sum, long h2, long step) {
    long next = bit + step;
    if (next >= bitCount) {
      next -= bitCount;
    }
    if (Long.compareUnsigned(sum + h2, sum) < 0) { // the 64-bit sum wrapped: 2^64 fell off it
      next -= wrap;
      if (next < 0) {
        next += bitCount;
      }
    }
    return next;
  }

  /** Builds a filter holding the given key hashes. */
  public static BloomFilter build(long[] hashes, int count, double falsePositiveRate) {
    int n = Math.max(1, count);
    double ln2 = Math.log(2);
    long bits = (long) Math.ceil(-n * Math.log(falsePositiveRate) / (ln2 * ln2));
    bits = Math.max(64, bits);
    int k = (int) Math.max(1, Math.min(30, Math.round((double) bits / n * ln2)));
    long[] words = new long[(int) ((bits + 63) / 64)];
    BloomFilter f = new BloomFilter(words, words.length * 64L, k);
    for (int i = 0; i < count; i++) {
      f.add(hashes[i]);
    }
    return f;
  }

  private void add(long hash) {
    long h2 = secondHash(hash);
    long step = Long.remainderUnsigned(h2, bitCount);
    long sum = hash;
    long bit = Long.remainderUnsigned(hash, bitCount);
    words[(int) (bit >>> 6)] |= 1L << (bit & 63);
    for (int i = 1; i < hashCount; i++) {
      bit = nextBit(bit, sum, h2, step);
      sum += h2;
      words[(int) (bit >>> 6)] |= 1L << (bit & 63);
    }
  }

  /** False if the key was certainly never added; true if it may have been. */
  public boolean mightContain(long hash) {
    long h2 = secondHash(hash);
    long sum = hash;
    long bit = Long.remainderUnsigned(hash, bitCount);
    if ((words[(int) (bit >>> 6)] & (1L << (bit & 63))) == 0) {
      return false; // about half the misses stop here, before the second division
    }
    long step = Long.remainderUnsigned(h2, bitCount);
    for (int i = 1; i < hashCount; i++) {
      bit = nextBit(bit, sum, h2, step);
      sum += h2;
      if ((words[(int) (bit >>> 6)] & (1L << (bit & 63))) == 0) {
        return false;
      }
    }
    return true;
  }

  /** Number of probe positions per key. */
  public int hashCount() {
    return hashCount;
  }

  /** Number of bits. */
  public long bitCount() {
    return bitCount;
  }

  /** Bytes {@link #writeTo} produces. */
  public int serializedSize() {
    return 4 + 4 + words.length * 8;
  }

  /** Writes {@code hashCount:u32, wordCount:u32, words:u64[]}. */
  public void writeTo(ByteBuffer out) {
    out.putInt(hashCount);
    out.putInt(words.length);
    for (long w : words) {
      out.putLong(w);
    }
  }

  /** Reads what {@link #writeTo} wrote. */
  public static BloomFilter readFrom(ByteBuffer in) {
    int k = in.getInt();
    int n = in.getInt();
    if (k < 1 || k > 30 || n < 1 || n > in.remaining() / 8) {
      throw new IllegalArgumentException("bad Bloom filter header: hashes=" + k + " words=" + n);
    }
    long[] words = new long[n];
    for (int i = 0; i < n; i++) {
      words[i] = in.getLong();
    }
    return new BloomFilter(words, n * 64L, k);
  }
}
