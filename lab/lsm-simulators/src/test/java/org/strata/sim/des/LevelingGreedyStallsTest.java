package org.strata.sim.des;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.config.NamedPlugin;

/**
 * Luo & Carey's AC-F4 (leveling T = 10 at 95% of the fair maximum: single-thread many stalls, fair
 * some stalls and a larger p99, greedy no stall), scaled as docs/papers/luo-carey.md#scaling
 * suggests: 1 M entries of 1 KB, M = 1.28 MB (data : memory about 780 as in the paper), 10 MB/s,
 * 12-minute phases. It holds with the paper's leveling ({@code pairwise=true}: two components per
 * merge, a full level merged down on its own, one merge leaving each level) and not with the Fluid
 * leveling, whose pushes carry the arrival that filled a level and whose closed-loop testing phase
 * lets several runs form at level 1 (docs/scheduling.md, "AC-F4").
 */
class LevelingGreedyStallsTest {
  private static final double PHASE = 720;
  private static final DesSetup SCALED =
      DesSetup.paper().withSizes(1_000_000, 1024, 1_310_720, 10.0 * (1 << 20));
  private static final Map<String, String> PAIRWISE =
      Map.of("size-ratio", "10", "pairwise", "true");
  private static final Map<String, String> FLUID =
      Map.of("size-ratio", "10", "preemptive", "false");

  private static DiscreteEventSimulator des(Map<String, String> policy, String scheduler) {
    return DiscreteEventSimulator.of(SCALED, new NamedPlugin("leveling", policy),
        new NamedPlugin(scheduler, Map.of()));
  }

  private static double ninetyFivePercentOfFair(Map<String, String> policy) {
    DesPhaseResult testing = des(policy, "fair").testing(PHASE);
    System.out.printf("AC-F4 %s testing (fair): max %.1f writes/s, wa %.2f%n", policy,
        testing.maxThroughput(), testing.writeAmplification());
    return 0.95 * testing.maxThroughput();
  }

  private static DesPhaseResult run(Map<String, String> policy, String scheduler,
      ArrivalProcess arrivals) {
    DesPhaseResult r = des(policy, scheduler).running(PHASE, arrivals);
    System.out.printf("AC-F4 %s %s at %.1f/s: stalls %d (%.1f s), p99 %.3f s, max components"
        + " %d%n", policy, scheduler, r.arrivalRate(), r.stallCount(), r.stallSeconds(),
        r.writeLatency().p99(), r.maxDiskComponents());
    return r;
  }

  @Test
  void pairwiseLevelingReproducesTheOrderingAndGreedyNeverStalls() {
    double rate = ninetyFivePercentOfFair(PAIRWISE);
    DesPhaseResult single = run(PAIRWISE, "single-thread", ArrivalProcess.constant(rate));
    DesPhaseResult fair = run(PAIRWISE, "fair", ArrivalProcess.constant(rate));
    DesPhaseResult greedy = run(PAIRWISE, "greedy", ArrivalProcess.constant(rate));
    assertThat(greedy.stallCount()).isZero();
    assertThat(greedy.maxDiskComponents()).isLessThanOrEqualTo(6); // 2·L, never exceeded
    assertThat(fair.stallCount()).isPositive();
    assertThat(single.stallSeconds()).isGreaterThan(fair.stallSeconds());
    assertThat(single.writeLatency().p99()).isGreaterThan(fair.writeLatency().p99());
    assertThat(fair.writeLatency().p99()).isGreaterThan(greedy.writeLatency().p99());
    // The premise of the greedy scheduler: every merge takes the same number of components.
    for (DesPhaseResult r : new DesPhaseResult[] {single, fair, greedy}) {
      for (MergeLogEntry m : r.merges()) {
        assertThat(m.inputRuns()).isBetween(1, 2);
      }
    }
  }

  /** Open-loop Poisson arrivals at the same mean rate, one seed per case (printed). */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 7, 42})
  void pairwiseGreedyNeverStallsUnderPoissonArrivals(long seed) {
    double rate = ninetyFivePercentOfFair(PAIRWISE);
    System.out.printf("AC-F4 Poisson arrivals, seed %d%n", seed);
    DesPhaseResult greedy = run(PAIRWISE, "greedy", ArrivalProcess.poisson(rate, seed));
    assertThat(greedy.stallCount()).as("seed %d", seed).isZero();
  }

  /** The default reading stalls: what docs/scheduling.md reports as AC-F4's difference. */
  @Test
  void fluidLevelingStallsUnderGreedy() {
    double rate = ninetyFivePercentOfFair(FLUID);
    DesPhaseResult greedy = run(FLUID, "greedy", ArrivalProcess.constant(rate));
    assertThat(greedy.stallCount()).isPositive();
    int wide = 0;
    for (MergeLogEntry m : greedy.merges()) {
      if (m.inputRuns() > 2) {
        wide++;
      }
    }
    assertThat(wide).as("merges of more than two runs").isPositive();
  }
}
