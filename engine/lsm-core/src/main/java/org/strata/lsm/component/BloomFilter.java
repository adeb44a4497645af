package org.strata.lsm.component;

import java.nio.ByteBuffer;

/**
 * A Bloom filter over key hashes ({@link KeyHash}). Bits and hash count follow from the entry count
 * and target false-positive rate p: bits = -n ln p / (ln 2)^2, hashes = round(bits / n * ln 2).
 *
 * <p>Probe positions. A filter this build writes probes independent positions: probe i reads bit
 * {@code floor(mix(h + (i + 1) * 0x9E3779B97F4A7C15) * bits / 2^64)}, {@code mix} the SplitMix64
 * finaliser (unsigned arithmetic; the scaling is a multiplication, not a division). Filters
 * written before used double hashing, probe i at {@code (h1 + i * h2) mod bits} with h2 the hash's
 * halves swapped and its low bit set (Kirsch and Mitzenmacher); they are still read, and answer as
 * they did. Double hashing lets through more false positives
 * than the filter's fill predicts when the filter is small: the probes of two keys, arithmetic
 * progressions, share two or more positions far more often than independent positions would. With
 * 116 keys and 12 hashes a 2,048-bit filter passed 2.5 to 3.6 times the predicted rate (its bit
 * count a power of two made it worst: 1,024 bits, 3 to 5 times); 2,112 and 1,088 bits still 1.2 to
 * 1.7 times. Independent probes match the prediction at every size (BloomFilterRateTest). The
 * header's hash-count word says which kind a filter is ({@link #writeTo}).
 */
public final class BloomFilter {
  /** Hash-count flag of a filter whose probes are independent (see the class comment). */
  private static final int INDEPENDENT = 1 << 8;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private final long[] words;
  private final long bitCount;
  private final int hashCount;
  /** True for independent probes; false for the double hashing of filters written before. */
  private final boolean independent;

  private BloomFilter(long[] words, long bitCount, int hashCount, boolean independent) {
    this.words = words;
    this.bitCount = bitCount;
    this.hashCount = hashCount;
    this.independent = independent;
  }

  /**
   * Builds a filter holding the given key hashes; for a rate of 1 or more (no filter, as Monkey
   * allocates to levels it cannot afford) a single word of set bits that lets every key through.
   */
  public static BloomFilter build(long[] hashes, int count, double falsePositiveRate) {
    if (falsePositiveRate >= 1) {
      return new BloomFilter(new long[] {-1L}, 64, 1, true);
    }
    int n = Math.max(1, count);
    double ln2 = Math.log(2);
    long bits = (long) Math.ceil(-n * Math.log(falsePositiveRate) / (ln2 * ln2));
    bits = Math.max(64, bits);
    int k = (int) Math.max(1, Math.min(30, Math.round((double) bits / n * ln2)));
    long[] words = new long[(int) ((bits + 63) / 64)];
    BloomFilter f = new BloomFilter(words, words.length * 64L, k, true);
    for (int i = 0; i < count; i++) {
      f.add(hashes[i]);
    }
    return f;
  }

  /** Bit of probe {@code i} of an independent-probe filter. */
  private long independentBit(long hash, int i) {
    long z = KeyHash.mix(hash + (i + 1) * GOLDEN);
    // floor(z * bits / 2^64), z unsigned: the high word of the product, without a division
    return Math.multiplyHigh(z, bitCount) + ((z >> 63) & bitCount);
  }

  private void add(long hash) {
    for (int i = 0; i < hashCount; i++) {
      long bit = independentBit(hash, i);
      words[(int) (bit >>> 6)] |= 1L << (bit & 63);
    }
  }

  /** False if the key was certainly never added; true if it may have been. */
  public boolean mightContain(long hash) {
    if (independent) {
      for (int i = 0; i < hashCount; i++) {
        long bit = independentBit(hash, i);
        if ((words[(int) (bit >>> 6)] & (1L << (bit & 63))) == 0) {
          return false;
        }
      }
      return true;
    }
    long h2 = (hash >>> 32) | (hash << 32) | 1;
    for (int i = 0; i < hashCount; i++) {
      long bit = Long.remainderUnsigned(hash + i * h2, bitCount);
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

  /** Whether the probes are independent positions (false: double hashing, an older filter). */
  public boolean independentProbes() {
    return independent;
  }

  /** Bytes {@link #writeTo} produces. */
  public int serializedSize() {
    return 4 + 4 + words.length * 8;
  }

  /**
   * Writes {@code hashes:u32, wordCount:u32, words:u64[]}; {@code hashes} is the hash count (1..30)
   * plus 256 for independent probes (a filter without that bit uses double hashing).
   */
  public void writeTo(ByteBuffer out) {
    out.putInt(hashCount | (independent ? INDEPENDENT : 0));
    out.putInt(words.length);
    for (long w : words) {
      out.putLong(w);
    }
  }

  /** Reads what {@link #writeTo} wrote, this build's or an older one's. */
  public static BloomFilter readFrom(ByteBuffer in) {
    int word = in.getInt();
    int k = word & ~INDEPENDENT;
    int n = in.getInt();
    if (k < 1 || k > 30 || n < 1 || n > in.remaining() / 8) {
      throw new IllegalArgumentException("bad Bloom filter header: hashes=" + word + " words="
          + n);
    }
    long[] words = new long[n];
    for (int i = 0; i < n; i++) {
      words[i] = in.getLong();
    }
    return new BloomFilter(words, n * 64L, k, (word & INDEPENDENT) != 0);
  }
}
