package org.strata.lsm.component;

import java.nio.ByteBuffer;

/**
 * A Bloom filter over key hashes ({@link KeyHash}). Bits and hash count follow from the entry count
 * and target false-positive rate p: bits = -n ln p / (ln 2)^2, hashes = round(bits / n * ln 2).
 * Probe positions use double hashing of the 64-bit hash (Kirsch and Mitzenmacher).
 */
public final class BloomFilter {
  private final long[] words;
  private final long bitCount;
  private final int hashCount;

  private BloomFilter(long[] words, long bitCount, int hashCount) {
    this.words = words;
    this.bitCount = bitCount;
    this.hashCount = hashCount;
  }

  /**
   * Builds a filter holding the given key hashes; for a rate of 1 or more (no filter, as Monkey
   * allocates to levels it cannot afford) a single word of set bits that lets every key through.
   */
  public static BloomFilter build(long[] hashes, int count, double falsePositiveRate) {
    if (falsePositiveRate >= 1) {
      return new BloomFilter(new long[] {-1L}, 64, 1);
    }
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
    long h1 = hash;
    long h2 = (hash >>> 32) | (hash << 32) | 1;
    for (int i = 0; i < hashCount; i++) {
      long bit = Long.remainderUnsigned(h1 + i * h2, bitCount);
      words[(int) (bit >>> 6)] |= 1L << (bit & 63);
    }
  }

  /** False if the key was certainly never added; true if it may have been. */
  public boolean mightContain(long hash) {
    long h1 = hash;
    long h2 = (hash >>> 32) | (hash << 32) | 1;
    for (int i = 0; i < hashCount; i++) {
      long bit = Long.remainderUnsigned(h1 + i * h2, bitCount);
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
