package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RecordGeneratorTest {
  @Test
  void keysAreUserPlusTwelveDigits() {
    assertThat(RecordGenerator.key(0)).isEqualTo("user000000000000");
    assertThat(RecordGenerator.key(42)).isEqualTo("user000000000042");
    assertThat(RecordGenerator.key(999_999_999_999L)).isEqualTo("user999999999999");
  }

  @Test
  void valuesDependOnlyOnIdSeedAndSize() {
    byte[] a = RecordGenerator.value(7, 3, 1000);
    assertThat(RecordGenerator.value(7, 3, 1000)).isEqualTo(a);
    assertThat(RecordGenerator.value(8, 3, 1000)).isNotEqualTo(a);
    assertThat(RecordGenerator.value(7, 4, 1000)).isNotEqualTo(a);
    for (byte b : a) {
      assertThat(b).isBetween((byte) 'a', (byte) 'z');
    }
  }

  @Test
  void permutationHoldsEveryIdOnce() {
    long[] p = RecordGenerator.permutation(10_000, 9);
    long[] sorted = p.clone();
    Arrays.sort(sorted);
    for (int i = 0; i < sorted.length; i++) {
      assertThat(sorted[i]).isEqualTo(i);
    }
    assertThat(p).isNotEqualTo(sorted);
    assertThat(RecordGenerator.permutation(10_000, 9)).isEqualTo(p);
  }
}
