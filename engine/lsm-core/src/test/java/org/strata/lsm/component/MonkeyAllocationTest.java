package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.strata.lsm.spi.LevelShape;

class MonkeyAllocationTest {
  private static final double LN2_SQ = Math.log(2) * Math.log(2);

  /**
   * Leveling, T = 10, L = 3, the memory of uniform 1% filters (ln 100 / ln²2 = 9.585 bits per
   * entry), by hand: level fractions 1 : 10 : 100 over 111 (0.009009, 0.09009, 0.9009); Eq. 18
   * gives p_1 = p_3/100, p_2 = p_3/10; the memory Σ f_i ln(1/p_i) = ln 100 gives ln(1/p_3) = ln 100
   * − 0.009009·ln 100 − 0.09009·ln 10 = 4.605170 − 0.041488 − 0.207440 = 4.356242, p_3 = 0.012826.
   */
  @Test
  void levelingByHand() {
    double[] p = MonkeyAllocation.falsePositiveRates(new LevelShape(10, 1, 1), 3,
        MonkeyAllocation.bitsPerEntry(0.01));
    assertThat(p).hasSize(3);
    assertThat(p[2]).isCloseTo(0.012826, within(1e-6));
    assertThat(p[1]).isCloseTo(0.0012826, within(1e-7));
    assertThat(p[0]).isCloseTo(0.00012826, within(1e-8));
    // R = 0.014238, against 0.03 for the same memory spent uniformly
    assertThat(MonkeyAllocation.zeroResultLookupCost(new LevelShape(10, 1, 1), p))
        .isCloseTo(0.014238, within(1e-5));
  }

  /**
   * Lazy leveling, T = 4, K = 3, Z = 1, L = 3, same memory: p_2 = p_3·Z/(K·T) = p_3/12, p_1 =
   * p_3/48; fractions 1 : 4 : 16 over 21; ln(1/p_3) = ln 100 + (1/21)·ln(1/48) + (4/21)·ln(1/12) =
   * 4.605170 − 0.184346 − 0.473312 = 3.947512, p_3 = 0.019303.
   */
  @Test
  void lazyLevelingByHand() {
    double[] p = MonkeyAllocation.falsePositiveRates(new LevelShape(4, 3, 1), 3,
        MonkeyAllocation.bitsPerEntry(0.01));
    assertThat(p[2]).isCloseTo(0.019303, within(1e-6));
    assertThat(p[1]).isCloseTo(0.019303 / 12, within(1e-6));
    assertThat(p[0]).isCloseTo(0.019303 / 48, within(1e-6));
  }

  @Test
  void spendsExactlyTheBudget() {
    for (LevelShape s : new LevelShape[] {new LevelShape(10, 1, 1), new LevelShape(10, 9, 1),
        new LevelShape(10, 9, 9), new LevelShape(5, 2, 3)}) {
      for (int levels = 1; levels <= 7; levels++) {
        double bits = 10;
        double[] p = MonkeyAllocation.falsePositiveRates(s, levels, bits);
        double total = 0;
        double spent = 0;
        for (int i = 1; i <= levels; i++) {
          double f = Math.pow(s.sizeRatio(), i - levels);
          total += f;
          spent += f * Math.log(1 / p[i - 1]) / LN2_SQ;
        }
        assertThat(spent / total).as("%s L=%d", s, levels).isCloseTo(bits, within(1e-9));
      }
    }
  }

  /**
   * For many levels, R approaches Eq. (10): e^(−(M/N)·ln²2)·Z^((T−1)/T)·K^(1/T)·T^(T/(T−1))/(T−1).
   */
  @Test
  void approachesEquationTenForManyLevels() {
    for (LevelShape s : new LevelShape[] {new LevelShape(10, 1, 1), new LevelShape(10, 9, 1),
        new LevelShape(10, 9, 9), new LevelShape(4, 2, 3)}) {
      double bits = 10;
      double t = s.sizeRatio();
      double eq10 = Math.exp(-bits * LN2_SQ) * Math.pow(s.runsAtLargestLevel(), (t - 1) / t)
          * Math.pow(s.runsPerLevel(), 1 / t) * Math.pow(t, t / (t - 1)) / (t - 1);
      double r = MonkeyAllocation.zeroResultLookupCost(s,
          MonkeyAllocation.falsePositiveRates(s, 40, bits));
      assertThat(r).as("%s", s).isCloseTo(eq10, within(eq10 * 1e-6));
    }
  }

  /**
   * Below the memory threshold the largest level gets no filter (App. C): T = 3, K = 2, Z = 1, L =
   * 4 at 1 bit per entry. With every level filtered, p_4 = e^(0.736) > 1; so the three smaller
   * levels share the whole budget (fractions 1 : 3 : 9 of 40 entries, p_1 = p_3/9, p_2 = p_3/3):
   * ln(1/p_3) = (0.480453·40 − ln 9 − 3·ln 3)/13 = 1.055774, p_3 = 0.347923.
   */
  @Test
  void noFilterWhereTheBudgetDoesNotReach() {
    LevelShape s = new LevelShape(3, 2, 1);
    double[] p = MonkeyAllocation.falsePositiveRates(s, 4, 1.0);
    assertThat(p[3]).isEqualTo(1.0);
    assertThat(p[2]).isCloseTo(0.347923, within(1e-6));
    assertThat(p[1]).isCloseTo(p[2] / 3, within(1e-9));
    assertThat(p[0]).isCloseTo(p[2] / 9, within(1e-9));
    assertThat(p[2]).isLessThan(1);
  }

  @Test
  void lowersTheLookupCostAgainstUniformFiltersOfTheSameMemory() {
    LevelShape s = new LevelShape(10, 9, 1);
    double[] p = MonkeyAllocation.falsePositiveRates(s, 5, MonkeyAllocation.bitsPerEntry(0.01));
    double uniform = 0.01 * (9 * 4 + 1);
    assertThat(MonkeyAllocation.zeroResultLookupCost(s, p)).isLessThan(uniform / 10);
  }

  @Test
  void refusesWhatIsNotAnAllocation() {
    LevelShape s = new LevelShape(10, 1, 1);
    assertThatThrownBy(() -> MonkeyAllocation.falsePositiveRates(s, 0, 10))
        .hasMessageContaining("at least one level");
    assertThatThrownBy(() -> MonkeyAllocation.falsePositiveRates(s, 3, 0))
        .hasMessageContaining("bits per entry");
    assertThatThrownBy(() -> MonkeyAllocation.bitsPerEntry(1.0))
        .hasMessageContaining("strictly between 0 and 1");
    assertThatThrownBy(() -> new LevelShape(10, 10, 1)).hasMessageContaining("1 <= K, Z <= T-1");
  }

  @Test
  void aRateOfOneBuildsAFilterThatLetsEveryKeyThrough() {
    BloomFilter f = BloomFilter.build(new long[] {1, 2, 3}, 3, 1.0);
    assertThat(f.bitCount()).isEqualTo(64);
    for (long h = 0; h < 1000; h++) {
      assertThat(f.mightContain(h * 0x9E3779B97F4A7C15L)).isTrue();
    }
  }
}
