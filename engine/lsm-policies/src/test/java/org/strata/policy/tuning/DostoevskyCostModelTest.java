package org.strata.policy.tuning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The cost model against docs/papers/dostoevsky.md#derived-values and #checks. */
class DostoevskyCostModelTest {
  // Fig. 9 configuration: N = 2^33, B = 32, P = 512, M/N = 10, mu = phi = 1.
  static final LsmShape FIG9 = new LsmShape(Math.pow(2, 33), 32, 512, 10, 1, 1);

  @ParameterizedTest(name = "T={0} K={1} Z={2}")
  @CsvSource({
      "2, 1, 1, 18, 0.03277, 1.01639, 9.000, 58.27, 420.65, 0.500, 1.443",
      "5, 1, 1, 9, 0.01531, 1.00306, 18.000, 41.21, 331.12, 0.200, 0.837",
      "5, 4, 4, 9, 0.06125, 1.04900, 7.200, 148.74, 1163.43, 3.200, 0.837",
      "5, 4, 1, 9, 0.02021, 1.00404, 8.400, 65.21, 355.12, 0.200, 1.415",
      "10, 1, 1, 6, 0.01176, 1.00118, 27.000, 35.53, 301.28, 0.100, 0.533",
      "10, 9, 9, 6, 0.10581, 1.09523, 5.400, 298.28, 2496.76, 8.100, 0.533",
      "10, 9, 1, 6, 0.01465, 1.00146, 9.000, 75.53, 341.28, 0.100, 0.990"})
  void reproducesTheDerivedTable(int t, int k, int z, int levels, double r, double v, double wb,
      double q7, double q6, double amp, double x) {
    FluidCosts c = DostoevskyCostModel.evaluate(FIG9, 1e-7, t, k, z);
    assertThat(c.levels()).isEqualTo(levels);
    assertThat(c.unfilteredLevels()).isZero();
    assertThat(c.zeroResultLookup()).isCloseTo(r, within(0.000006));
    assertThat(c.existingLookup()).isCloseTo(v, within(0.000006));
    assertThat(c.update() * 32).isCloseTo(wb, within(0.0006));
    assertThat(c.rangeLookup()).isCloseTo(q7, within(0.006));
    assertThat(DostoevskyCostModel.evaluate(FIG9, 1e-6, t, k, z).rangeLookup())
        .isCloseTo(q6, within(0.006));
    assertThat(c.spaceAmplification()).isCloseTo(amp, within(0.0006));
    assertThat(DostoevskyCostModel.memoryThreshold(t, k, z)).isCloseTo(x, within(0.0006));
  }

  @Test
  void lazyLevelingFilterAllocationUsesTheWholeBudget() {
    FluidCosts c = DostoevskyCostModel.evaluate(FIG9, 1e-7, 10, 9, 1);
    double[] p = c.falsePositiveRates();
    assertThat(p[5]).isCloseTo(0.013181, within(0.0000006));
    assertThat(c.bitsPerEntry()[5]).isCloseTo(9.01, within(0.006));
    assertThat(p[4]).isCloseTo(1.465e-4, within(0.0006e-4));
    assertThat(c.bitsPerEntry()[4]).isCloseTo(18.38, within(0.006));
    // Eq. (4): level i holds a (T-1)/T / T^(L-i) share of the entries.
    double bits = 0;
    for (int i = 1; i <= 6; i++) {
      bits += c.bitsPerEntry()[i - 1] * 0.9 / Math.pow(10, 6 - i);
    }
    assertThat(bits).isCloseTo(10.0, within(0.001));
    assertThat(DostoevskyCostModel.evaluate(FIG9, 1e-7, 10, 1, 1).falsePositiveRates()[5])
        .isCloseTo(0.010581, within(0.0000006));
  }

  @Test
  void claimsOfThePaperHold() {
    for (int t = 3; t <= 30; t++) {
      FluidCosts lev = DostoevskyCostModel.evaluate(FIG9, 1e-7, t, 1, 1);
      FluidCosts lazy = DostoevskyCostModel.evaluate(FIG9, 1e-7, t, t - 1, 1);
      assertThat(lazy.update()).isLessThan(lev.update());
      assertThat(lazy.zeroResultLookup()).isLessThanOrEqualTo(1.33 * lev.zeroResultLookup());
    }
    double best = 0;
    int argBest = 0;
    for (int t = 2; t <= 10; t++) {
      double x = DostoevskyCostModel.memoryThreshold(t, t - 1, 1);
      if (x > best) {
        best = x;
        argBest = t;
      }
    }
    assertThat(argBest).isEqualTo(3);
    assertThat(best).isCloseTo(1.624, within(0.0006));
  }

  @Test
  void belowTheMemoryThresholdTheLargestLevelsLoseTheirFilters() {
    LsmShape lowMemory = new LsmShape(Math.pow(2, 33), 32, 512, 0.3, 1, 1);
    FluidCosts c = DostoevskyCostModel.evaluate(lowMemory, 1e-7, 10, 1, 1);
    assertThat(c.unfilteredLevels()).isPositive();
    double[] p = c.falsePositiveRates();
    assertThat(p[c.levels() - 1]).isEqualTo(1.0);
    for (double pi : p) {
      assertThat(pi).isBetween(0.0, 1.0);
    }
    assertThat(c.zeroResultLookup()).isGreaterThanOrEqualTo(c.unfilteredLevels());
  }

  @Test
  void tunerFollowsTheWorkload() {
    List<DostoevskyTuner.Candidate> updates = DostoevskyTuner.rank(FIG9,
        new Workload(0.99, 0.01, 0, 0, 1e-7), Double.POSITIVE_INFINITY, 20);
    FluidCosts u = updates.get(0).costs();
    assertThat(u.z()).isGreaterThan(1); // tiering-like at the largest level
    List<DostoevskyTuner.Candidate> lookups = DostoevskyTuner.rank(FIG9,
        new Workload(0.01, 0.0, 0.0, 0.99, 1e-7), Double.POSITIVE_INFINITY, 20);
    FluidCosts l = lookups.get(0).costs();
    assertThat(l.k()).isEqualTo(1);
    assertThat(l.z()).isEqualTo(1); // leveling for short ranges
    List<DostoevskyTuner.Candidate> bounded = DostoevskyTuner.rank(FIG9,
        new Workload(0.99, 0.01, 0, 0, 1e-7), 0.5, 20);
    assertThat(bounded).allSatisfy(c -> assertThat(c.costs().spaceAmplification())
        .isLessThanOrEqualTo(0.5));
    assertThat(bounded.get(0).costs().z()).isEqualTo(1);
  }
}
