package org.strata.sim.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.CsvSource;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;

/** The policies on Mao et al.'s model against the derived values of docs/papers/mao.md. */
class MergeSimulatorTest {

  private static MergePolicy policy(String name, int k) {
    return Plugins.mergePolicy(new NamedPlugin(name, Map.of("num-components",
        Integer.toString(k))));
  }

  private static List<Integer> countsAfterEachFlush(String name, int k, int n) {
    MergeSimulator sim = new MergeSimulator(policy(name, k));
    List<Integer> counts = new ArrayList<>();
    for (int t = 0; t < n; t++) {
      sim.flush(1);
      counts.add(sim.checkpoint().components());
    }
    return counts;
  }

  @Test
  void firstDecisionsMatchTheSpec() {
    assertThat(countsAfterEachFlush("min-latency", 3, 40)).containsExactly(1, 2, 3, 1, 2, 3, 2, 3,
        3, 1, 2, 3, 2, 3, 3, 2, 3, 3, 3, 1, 2, 3, 2, 3, 3, 2, 3, 3, 3, 2, 3, 3, 3, 3, 1, 2, 3, 2, 3,
        3);
    assertThat(countsAfterEachFlush("min-latency", 2, 15)).containsExactly(1, 2, 1, 2, 2, 1, 2, 2,
        2, 1, 2, 2, 2, 2, 1);
    assertThat(countsAfterEachFlush("binomial", 3, 30)).containsExactly(1, 1, 2, 2, 1, 2, 3, 2, 3,
        3, 2, 3, 3, 3, 1, 2, 3, 2, 3, 3, 2, 3, 3, 3, 2, 3, 3, 3, 3, 1);
    assertThat(countsAfterEachFlush("binomial", 4, 25)).containsExactly(1, 1, 2, 2, 1, 2, 3, 2, 3,
        3, 2, 3, 3, 3, 1, 2, 3, 4, 2, 3, 4, 3, 4, 4, 2);
    assertThat(countsAfterEachFlush("constant", 3, 8)).containsExactly(1, 2, 3, 1, 2, 3, 1, 2);
  }

  @ParameterizedTest(name = "{0} k={1} n={2}: W_model {3}, average count {4}")
  @CsvSource({
      "min-latency, 3, 10, 2.5000, -1",
      "min-latency, 3, 50, 3.9000, -1",
      "min-latency, 3, 100, 5.1800, -1",
      "binomial, 3, 10, 1.9000, -1",
      "binomial, 3, 50, 3.7200, -1",
      "binomial, 3, 100, 5.1900, -1",
      "min-latency, 3, 1000, 12.74, 2.82",
      "min-latency, 10, 1000, 3.64, 8.01",
      "min-latency, 6, 20000, 11.00, 5.53",
      "binomial, 10, 1000, 5.37, 5.27",
      "binomial, 7, 20000, 9.41, 6.34",
      "binomial, 5, 3000, 9.17, 4.53",
      "bigtable, 4, 1000, 12.57, 3.75",
      "bigtable, 5, 20000, 49.70, 4.88",
      "bigtable, 6, 20000, 20.93, 5.68",
      "bigtable, 10, 5000, 7.90, 7.14",
      "exploring, 4, 20000, 155.96, 3.96",
      "exploring, 3, 5000, 158.73, 2.98",
      "exploring, 10, 1000, 5.97, 4.41",
      "exploring, 6, 10000, 11.08, 5.36",
      "constant, 3, 1000, 167.83, -1",
      "constant, 10, 20000, 1000.50, -1"})
  void uniformFlushesReproduceTheDerivedTable(String name, int k, int n, double wModel,
      double avgCount) {
    MergeSimulator sim = new MergeSimulator(policy(name, k));
    for (int t = 0; t < n; t++) {
      sim.flush(1);
    }
    MergeSimulator.Checkpoint c = sim.checkpoint();
    double tolerance = wModel < 10 && String.valueOf(wModel).length() > 4 ? 0.00005 : 0.005;
    assertThat(c.modelWriteAmplification()).isCloseTo(wModel, within(tolerance));
    if (avgCount > 0) {
      assertThat(c.averageComponentCount()).isCloseTo(avgCount, within(0.005));
    }
    // The engine's accounting writes every flush once more when it is merged at once.
    assertThat(c.writeAmplification()).isGreaterThanOrEqualTo(c.modelWriteAmplification());
    assertThat(c.writeAmplification() - c.modelWriteAmplification()).isLessThan(1.0);
  }

  @Test
  void boundedDepthPoliciesNeverExceedK() {
    for (String name : List.of("min-latency", "binomial", "bigtable", "exploring", "constant")) {
      for (int k : new int[] {3, 5, 8}) {
        List<Integer> counts = countsAfterEachFlush(name, k, 3000);
        assertThat(counts).as("%s"
            + " k=%d", name, k).allSatisfy(c -> assertThat(c).isLessThanOrEqualTo(k));
      }
    }
  }

  /** Every cell of docs/papers/mao.md#derived-values (W_model and average count, two decimals). */
  @ParameterizedTest(name = "{0} k={1} n={2}")
  @CsvFileSource(resources = "/mao-a74-uniform.csv", delimiter = ',')
  void everyCellOfTableA74(String name, int k, int n, double wModel, double avgCount) {
    MergeSimulator sim = new MergeSimulator(policy(name, k));
    for (int t = 0; t < n; t++) {
      sim.flush(1);
    }
    assertThat(sim.checkpoint().modelWriteAmplification()).isCloseTo(wModel, within(0.005));
    assertThat(sim.checkpoint().averageComponentCount()).isCloseTo(avgCount, within(0.005));
  }

  /**
   * Table I as observed on AsterixDB, against the model: within the tolerance of 15% for the static
   * policies and 25% for BIGTABLE and EXPLORING (docs/papers/mao.md#tolerances), for the engine's
   * accounting.
   */
  @ParameterizedTest(name = "{0} k={1} n={2}: observed {3}")
  @CsvFileSource(resources = "/mao-table1-observed.csv", delimiter = ',')
  void tableOneWithinTheSpecsTolerance(String name, int k, int n, double observed,
      double observedCount) {
    MergeSimulator sim = new MergeSimulator(policy(name, k));
    for (int t = 0; t < n; t++) {
      sim.flush(1);
    }
    double tolerance = name.equals("bigtable") || name.equals("exploring") ? 0.25 : 0.15;
    double model = sim.checkpoint().modelWriteAmplification();
    assertThat(Math.abs(observed - model) / model).as("observed %.2f, model %.2f", observed, model)
        .isLessThanOrEqualTo(tolerance);
    // Observed counts run higher than the model's because real flushes arrive during long merges.
    // Where the observed average exceeds k (the cells the paper highlights, all BIGTABLE and
    // EXPLORING at k = 3..5) no instantaneous-merge model can follow: the model stays <= k.
    if (observedCount > k) {
      assertThat(sim.checkpoint().averageComponentCount()).isLessThanOrEqualTo(k);
      return;
    }
    double countTolerance = name.equals("bigtable") || name.equals("exploring") ? 0.25 : 0.08;
    double modelCount = sim.checkpoint().averageComponentCount();
    assertThat(Math.abs(observedCount - modelCount) / modelCount)
        .as("observed count %.2f, model %.2f", observedCount, modelCount)
        .isLessThanOrEqualTo(countTolerance);
  }

  /**
   * docs/papers/mao.md#checks, item 4: at n = C(m+k, k) − 1, MINLATENCY's W equals
   * (mk/(k+1))·C/(C − 1), the optimum.
   */
  @ParameterizedTest(name = "k={0} m={1}")
  @CsvSource({"3, 5", "3, 12", "4, 6", "5, 5", "6, 4", "10, 3"})
  void minLatencyMeetsTheClosedFormAtCompleteTrees(int k, int m) {
    long c = org.strata.policy.BinomialsAccess.choose(m + k, k);
    long n = c - 1;
    MergeSimulator sim = new MergeSimulator(policy("min-latency", k));
    for (long t = 0; t < n; t++) {
      sim.flush(1);
    }
    double closedForm = (double) m * k / (k + 1) * c / (c - 1);
    assertThat(sim.checkpoint().modelWriteAmplification()).isCloseTo(closedForm, within(1e-9));
  }

  /**
   * Binomial reads component ids: fed Hyracks' numbering of a secondary index built on an empty
   * dataset (its flushes numbered from 2), it merges at other flushes than fed 1, 2, 3, ...
   */
  @Test
  void flushesWithTheHostsIdsDecideAsTheHostsPolicyDoes() {
    NamedPlugin binomial = new NamedPlugin("binomial", Map.of("num-components", "4"));
    MergeSimulator dense = MergeSimulator.of(binomial);
    MergeSimulator shifted = MergeSimulator.of(binomial);
    List<Integer> denseCounts = new ArrayList<>();
    List<Integer> shiftedCounts = new ArrayList<>();
    for (int f = 1; f <= 6; f++) {
      dense.flush(100);
      shifted.flush(100, f + 1);
      denseCounts.add(dense.runs().size());
      shiftedCounts.add(shifted.runs().size());
    }
    assertThat(shifted.runs().get(0).maxComponentId()).isEqualTo(7);
    assertThat(shifted.checkpoint().flushes()).isEqualTo(6);
    assertThat(shiftedCounts).isNotEqualTo(denseCounts);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> shifted.flush(100, 7))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not above");
  }
}
