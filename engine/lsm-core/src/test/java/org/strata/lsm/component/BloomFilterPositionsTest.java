package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The Bloom filter's probe positions are part of the file format (docs/format.md): probe i of hash
 * h1 reads bit (h1 + i·h2) mod bits, the sum in unsigned 64-bit arithmetic, h2 the halves of h1
 * swapped with the low bit set. These tests compare the filter's bits and answers with the formula
 * written out here, over many filter sizes and hashes whose sums wrap, so that a faster way to
 * compute the positions cannot change the format unnoticed (one such attempt, stepping from one
 * position to the next with two divisions per key, kept the bits but measured slower:
 * docs/performance-journal.md).
 */
class BloomFilterPositionsTest {
  /** The words of a filter of {@code bits} bits and {@code k} probes built by the formula. */
  private static long[] byFormula(long[] hashes, long bits, int k) {
    long[] words = new long[(int) (bits / 64)];
    for (long h1 : hashes) {
      long h2 = (h1 >>> 32) | (h1 << 32) | 1;
      for (int i = 0; i < k; i++) {
        long bit = Long.remainderUnsigned(h1 + i * h2, bits);
        words[(int) (bit >>> 6)] |= 1L << (bit & 63);
      }
    }
    return words;
  }

  private static boolean containsByFormula(long[] words, long h1, int k) {
    long bits = words.length * 64L;
    long h2 = (h1 >>> 32) | (h1 << 32) | 1;
    for (int i = 0; i < k; i++) {
      long bit = Long.remainderUnsigned(h1 + i * h2, bits);
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

  @Test
  void bitsAndAnswersAreTheFormulasForManySizesAndRates() {
    SplittableRandom r = new SplittableRandom(11);
    int[] counts = {1, 2, 7, 100, 1000, 12_345, 100_000};
    double[] rates = {0.5, 0.1, 0.01, 0.001, 1e-6};
    for (int n : counts) {
      for (double p : rates) {
        long[] hashes = new long[n];
        for (int i = 0; i < n; i++) {
          // a quarter of the hashes near 2^64 so that their sums wrap on the first steps
          hashes[i] = i % 4 == 0 ? -1L - r.nextInt(1 << 20) : r.nextLong();
        }
        BloomFilter f = BloomFilter.build(hashes, n, p);
        long[] expected = byFormula(hashes, f.bitCount(), f.hashCount());
        assertThat(words(f)).as("n=%d p=%s bits=%d k=%d", n, p, f.bitCount(), f.hashCount())
            .isEqualTo(expected);
        for (long h : hashes) {
          assertThat(f.mightContain(h)).isTrue();
        }
        for (int i = 0; i < 2000; i++) {
          long h = i % 4 == 0 ? -1L - r.nextInt(1 << 20) : r.nextLong();
          assertThat(f.mightContain(h)).as("probe %x, n=%d p=%s", h, n, p)
              .isEqualTo(containsByFormula(expected, h, f.hashCount()));
        }
      }
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
    BloomFilter back = BloomFilter.readFrom(b);
    for (int i = 0; i < 20_000; i++) {
      long h = i < hashes.length ? hashes[i] : r.nextLong();
      assertThat(back.mightContain(h)).isEqualTo(f.mightContain(h));
    }
  }
}
