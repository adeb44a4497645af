package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyChooserTest {
  private static long[] histogram(String distribution) {
    KeyChooser c = new KeyChooser(new TwoPhaseConfig.Records(10, 10, distribution, 0.99), 1000);
    SplittableRandom r = new SplittableRandom(1);
    long[] counts = new long[1000];
    for (int i = 0; i < 200_000; i++) {
      long k = c.next(r);
      assertThat(k).isBetween(0L, 999L);
      counts[(int) k]++;
    }
    return counts;
  }

  @Test
  void uniformIsFlatAndZipfConcentratesOnScatteredHotKeys() {
    long[] u = histogram("uniform");
    long[] z = histogram("zipf");
    long[] us = u.clone();
    long[] zs = z.clone();
    Arrays.sort(us);
    Arrays.sort(zs);
    long uTop10 = 0;
    long zTop10 = 0;
    for (int i = 990; i < 1000; i++) {
      uTop10 += us[i];
      zTop10 += zs[i];
    }
    // Uniform: the ten most written keys get about 1% of the writes; Zipf 0.99 over 1000 keys
    // gives them about 39%.
    assertThat(uTop10).isLessThan(200_000 / 50);
    assertThat(zTop10).isGreaterThan(200_000 / 4);
    // The hottest key is not simply key 0: ranks are scattered over the key space.
    int hottest = 0;
    for (int i = 1; i < 1000; i++) {
      if (z[i] > z[hottest]) {
        hottest = i;
      }
    }
    assertThat(hottest).isNotZero();
    assertThat(RecordShape.key(42)).isEqualTo("user000000000042");
  }
}
