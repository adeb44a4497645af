package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A filter lets through the false positives its fill predicts, (fraction of set bits)^hashes, at
 * every size: over many filters and probes the count of absent keys passed is within a few
 * standard deviations of the prediction. The sizes are small filters at 12 hashes, where double
 * hashing (the probes of filters written before) passed 1.2 to 5 times the prediction: 58 keys
 * (1,024 bits), 62 (1,088), 116 (2,048) and 120 (2,112). A large filter is checked too.
 */
class BloomFilterRateTest {
  private static final int PROBES = 50_000;

  @Test
  void falsePositivesFollowTheFillAtEverySize() {
    SplittableRandom r = new SplittableRandom(2026);
    for (int n : new int[] {58, 62, 116, 120, 20_000}) {
      int filters = n > 1000 ? 4 : 40;
      double passed = 0;
      double predicted = 0;
      long bits = 0;
      for (int f = 0; f < filters; f++) {
        long[] hashes = r.longs(n).toArray();
        BloomFilter filter = BloomFilter.build(hashes, n, 2.4e-4);
        bits = filter.bitCount();
        predicted += Math.pow(fill(filter), filter.hashCount()) * PROBES;
        for (int i = 0; i < PROBES; i++) {
          if (filter.mightContain(r.nextLong())) {
            passed++;
          }
        }
      }
      // the count is near Poisson: its variance is about its mean
      double sigma = Math.sqrt(predicted);
      assertThat(passed).as("%d keys, %d bits: %s absent keys passed, %s predicted by the fill",
          n, bits, passed, predicted).isBetween(predicted - 5 * sigma - 2,
          predicted + 5 * sigma + 2);
    }
  }

  /** Fraction of the filter's bits that are set. */
  private static double fill(BloomFilter f) {
    ByteBuffer b = ByteBuffer.allocate(f.serializedSize());
    f.writeTo(b);
    b.flip();
    b.getInt();
    int words = b.getInt();
    long set = 0;
    for (int i = 0; i < words; i++) {
      set += Long.bitCount(b.getLong());
    }
    return (double) set / f.bitCount();
  }
}
