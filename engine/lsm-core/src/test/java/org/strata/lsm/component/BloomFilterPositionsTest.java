package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The Bloom filter's probe positions are part of the file format (docs/format.md): probe i of
 * hash h reads bit floor(mix(h + (i + 1)·0x9E3779B97F4A7C15)·bits / 2^64), mix the SplitMix64
 * finaliser, unsigned (computed here with BigInteger), in a
 * filter this build writes; a filter written before reads bit (h + i·h2) mod bits, h2 the halves of
 * h swapped with the low bit set, and is still answered that way. These tests compare the filter's
 * bits and answers with the formulas written out here, over many filter sizes and hashes whose sums
 * wrap, so that a faster way to compute the positions cannot change the format unnoticed.
 */
class BloomFilterPositionsTest {
  private static long independentBit(long h, int i, long bits) {
    long z = h + (i + 1) * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z ^= z >>> 31;
    return new java.math.BigInteger(Long.toUnsignedString(z)).multiply(java.math.BigInteger
        .valueOf(bits)).shiftRight(64).longValueExact();
  }

  private static long doubleHashingBit(long h, int i, long bits) {
    long h2 = (h >>> 32) | (h << 32) | 1;
    return Long.remainderUnsigned(h + i * h2, bits);
  }

  private interface Probe {
    long bit(long h, int i, long bits);
  }

  /** The words of a filter of {@code bits} bits and {@code k} probes built by {@code probe}. */
  private static long[] byFormula(long[] hashes, long bits, int k, Probe probe) {
    long[] words = new long[(int) (bits / 64)];
    for (long h : hashes) {
      for (int i = 0; i < k; i++) {
        long bit = probe.bit(h, i, bits);
        words[(int) (bit >>> 6)] |= 1L << (bit & 63);
      }
    }
    return words;
  }

  private static boolean containsByFormula(long[] words, long h, int k, Probe probe) {
    long bits = words.length * 64L;
    for (int i = 0; i < k; i++) {
      long bit = probe.bit(h, i, bits);
      if ((words[(int) (bit >>> 6)] & (1L << (bit & 63))) == 0) {
        return false;
      }
    }
    return true;
  }

  private static long[] words(BloomFilter f) {
    ByteBuffer b = ByteBuffer.allocate(f.serializedSize());
    f.writeTo(b);
    b.flip();
    b.getInt();
    long[] w = new long[b.getInt()];
    for (int i = 0; i < w.length; i++) {
      w[i] = b.getLong();
    }
    return w;
  }

  private static long[] hashes(SplittableRandom r, int n) {
    long[] hashes = new long[n];
    for (int i = 0; i < n; i++) {
      // a quarter of the hashes near 2^64 so that their sums wrap on the first steps
      hashes[i] = i % 4 == 0 ? -1L - r.nextInt(1 << 20) : r.nextLong();
    }
    return hashes;
  }

  @Test
  void bitsAndAnswersAreTheFormulasForManySizesAndRates() {
    SplittableRandom r = new SplittableRandom(11);
    int[] counts = {1, 2, 7, 100, 1000, 12_345, 100_000};
    double[] rates = {0.5, 0.1, 0.01, 0.001, 1e-6};
    for (int n : counts) {
      for (double p : rates) {
        long[] hashes = hashes(r, n);
        BloomFilter f = BloomFilter.build(hashes, n, p);
        assertThat(f.independentProbes()).isTrue();
        long[] expected = byFormula(hashes, f.bitCount(), f.hashCount(),
            BloomFilterPositionsTest::independentBit);
        assertThat(words(f)).as("n=%d p=%s bits=%d k=%d", n, p, f.bitCount(), f.hashCount())
            .isEqualTo(expected);
        for (long h : hashes) {
          assertThat(f.mightContain(h)).isTrue();
        }
        for (int i = 0; i < 2000; i++) {
          long h = i % 4 == 0 ? -1L - r.nextInt(1 << 20) : r.nextLong();
          assertThat(f.mightContain(h)).as("probe %x, n=%d p=%s", h, n, p)
              .isEqualTo(containsByFormula(expected, h, f.hashCount(),
                  BloomFilterPositionsTest::independentBit));
        }
      }
    }
  }

  /** A filter as a build before independent probes wrote it: its header has no flag. */
  @Test
  void aFilterOfAnOlderBuildIsReadAndAnsweredByDoubleHashing() {
    SplittableRandom r = new SplittableRandom(13);
    for (int n : new int[] {1, 116, 5000}) {
      long[] hashes = hashes(r, n);
      int words = Math.max(1, (int) ((n * 10L + 63) / 64));
      int k = 7;
      long[] written = byFormula(hashes, words * 64L, k,
          BloomFilterPositionsTest::doubleHashingBit);
      ByteBuffer b = ByteBuffer.allocate(8 + 8 * words);
      b.putInt(k).putInt(words);
      for (long w : written) {
        b.putLong(w);
      }
      b.flip();
      BloomFilter old = BloomFilter.readFrom(b);
      assertThat(old.independentProbes()).isFalse();
      assertThat(old.hashCount()).isEqualTo(k);
      for (long h : hashes) {
        assertThat(old.mightContain(h)).isTrue();
      }
      for (int i = 0; i < 5000; i++) {
        long h = r.nextLong();
        assertThat(old.mightContain(h)).isEqualTo(containsByFormula(written, h, k,
            BloomFilterPositionsTest::doubleHashingBit));
      }
      assertThat(words(old)).isEqualTo(written);
    }
  }

  @Test
  void aFilterReadBackAnswersAsTheOneWritten() {
    SplittableRandom r = new SplittableRandom(5);
    long[] hashes = r.longs(5000).toArray();
    BloomFilter f = BloomFilter.build(hashes, hashes.length, 0.01);
    ByteBuffer b = ByteBuffer.allocate(f.serializedSize());
    f.writeTo(b);
    b.flip();
    assertThat(b.getInt(0)).as("hash-count word: the count plus the flag").isEqualTo(
        f.hashCount() + 256);
    BloomFilter back = BloomFilter.readFrom(b);
    assertThat(back.independentProbes()).isTrue();
    for (int i = 0; i < 20_000; i++) {
      long h = i < hashes.length ? hashes[i] : r.nextLong();
      assertThat(back.mightContain(h)).isEqualTo(f.mightContain(h));
    }
  }
}
