package org.strata.sim.des;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;

/**
 * Luo & Carey's findings from the discrete-event simulator at the paper's setup (100 M entries of
 * 1 KB, M = 128 MB, B = 100 MB/s, two-hour phases), with the real policy and scheduler classes.
 * The numbers in the assertions are the ones measured when the test was written.
 */
class PaperExperimentsTest {
  private static final double TWO_HOURS = 7200;
  private static final Map<String, String> TIERING =
      Map.of("size-ratio", "3", "preemptive", "false", "max-components", "48");
  private static final Map<String, String> LEVELING =
      Map.of("size-ratio", "10", "preemptive", "false");

  private static DiscreteEventSimulator des(DesSetup setup, String policy,
      Map<String, String> params, String scheduler) {
    return DiscreteEventSimulator.of(setup, new NamedPlugin(policy, params),
        new NamedPlugin(scheduler, Map.of()));
  }

  private static void print(String what, DesPhaseResult r) {
    System.out.printf("DES %s: max %.1f/s rate %.1f/s stalls %d (%.1f s) p50 %.4f p99 %.3f"
        + " max %.2f comps %d flushed %d wa %.2f%n", what, r.maxThroughput(), r.arrivalRate(),
        r.stallCount(), r.stallSeconds(), r.writeLatency().p50(), r.writeLatency().p99(),
        r.writeLatency().max(), r.maxDiskComponents(), r.maxFlushedComponents(),
        r.writeAmplification());
  }

  /** The testing phase under fair, then each scheduler's running phase at 95% of its maximum. */
  private record Comparison(DesPhaseResult single, DesPhaseResult fair, DesPhaseResult greedy) {}

  private static Comparison atNinetyFivePercent(String policy, Map<String, String> params) {
    DesSetup paper = DesSetup.paper();
    DesPhaseResult testing = des(paper, policy, params, "fair").testing(TWO_HOURS);
    print(policy + " testing fair", testing);
    double rate = 0.95 * testing.maxThroughput();
    DesPhaseResult[] r = new DesPhaseResult[3];
    String[] names = {"single-thread", "fair", "greedy"};
    for (int i = 0; i < 3; i++) {
      r[i] = des(paper, policy, params, names[i])
          .running(TWO_HOURS, ArrivalProcess.constant(rate));
      print(policy + " " + names[i], r[i]);
    }
    return new Comparison(r[0], r[1], r[2]);
  }

  @Test
  void tieringAtNinetyFivePercentOfFair() {
    Comparison c = atNinetyFivePercent("tiering", TIERING);
    assertThat(c.single().stallCount()).isPositive();
    assertThat(c.fair().stallCount()).isZero();
    assertThat(c.greedy().stallCount()).isZero();
    assertThat(c.fair().maxDiskComponents()).isLessThan(48);
    assertThat(c.greedy().maxDiskComponents()).isLessThan(48);
    assertThat(c.single().writeLatency().p99()).isGreaterThan(c.fair().writeLatency().p99());
    int above = greedyAboveFair(c.greedy().series(), c.fair().series());
    System.out.printf("DES tiering: greedy above fair at %d of %d sampled seconds%n", above,
        c.greedy().series().size());
    // Theorem 2 holds for static merge sets; on a live trace greedy was above fair at 66 of
    // 7200 sampled seconds (0.9%) when this was written, by one or two components.
    assertThat(above).isLessThanOrEqualTo(72);
  }

  @Test
  void levelingAtNinetyFivePercentOfFair() {
    Comparison c = atNinetyFivePercent("leveling", LEVELING);
    assertThat(c.single().stallCount()).isPositive();
    assertThat(c.single().writeLatency().p99()).isGreaterThan(c.fair().writeLatency().p99());
    assertThat(c.fair().writeLatency().p99())
        .isGreaterThanOrEqualTo(c.greedy().writeLatency().p99());
    assertThat(c.fair().stallSeconds()).isGreaterThan(c.greedy().stallSeconds());
    int above = greedyAboveFair(c.greedy().series(), c.fair().series());
    System.out.printf("DES leveling: greedy above fair at %d of %d sampled seconds%n", above,
        c.greedy().series().size());
  }

  /**
   * AC-F4 in full with the paper's leveling ({@code pairwise=true}): fair maximum 5,636 writes/s
   * when this was written; at 95% of it single-thread 189 stalls (p99 905 s), fair 18 (p99 6.0
   * s), greedy none and at most 2·L = 6 components. The Fluid leveling above stalls under greedy
   * (docs/scheduling.md, "AC-F4").
   */
  @Test
  void pairwiseLevelingAtNinetyFivePercentOfFairNeverStallsUnderGreedy() {
    Comparison c = atNinetyFivePercent("leveling", Map.of("size-ratio", "10", "pairwise",
        "true"));
    assertThat(c.greedy().stallCount()).isZero();
    assertThat(c.greedy().maxDiskComponents()).isLessThanOrEqualTo(6);
    assertThat(c.fair().stallCount()).isPositive();
    assertThat(c.single().stallSeconds()).isGreaterThan(c.fair().stallSeconds());
    assertThat(c.single().writeLatency().p99()).isGreaterThan(c.fair().writeLatency().p99());
    assertThat(c.fair().writeLatency().p99()).isGreaterThan(c.greedy().writeLatency().p99());
  }

  private static int greedyAboveFair(List<SecondSample> greedy, List<SecondSample> fair) {
    int above = 0;
    for (int i = 0; i < greedy.size(); i++) {
      if (greedy.get(i).diskComponents() > fair.get(i).diskComponents()) {
        above++;
      }
    }
    return above;
  }

  @Test
  void sizeTieredMeasuredWithMergeExactlyMinIsSustainable() {
    DesSetup paper = DesSetup.paper();
    Map<String, String> free = Map.of("size-ratio", "1.2", "min-merge", "2", "max-merge", "10",
        "max-component-count", "50");
    Map<String, String> exact = Map.of("size-ratio", "1.2", "min-merge", "2", "max-merge", "10",
        "max-component-count", "50", "merge-exactly-min", "true");
    DesPhaseResult x1 = des(paper, "size-tiered", free, "fair").testing(TWO_HOURS);
    DesPhaseResult x2 = des(paper, "size-tiered", exact, "fair").testing(TWO_HOURS);
    print("size-tiered testing unrestricted", x1);
    print("size-tiered testing exactly-min", x2);
    DesPhaseResult atX1 = des(paper, "size-tiered", free, "fair")
        .running(TWO_HOURS, ArrivalProcess.constant(0.95 * x1.maxThroughput()));
    DesPhaseResult atX2 = des(paper, "size-tiered", free, "fair")
        .running(TWO_HOURS, ArrivalProcess.constant(0.95 * x2.maxThroughput()));
    DesPhaseResult atX2greedy = des(paper, "size-tiered", free, "greedy")
        .running(TWO_HOURS, ArrivalProcess.constant(0.95 * x2.maxThroughput()));
    print("size-tiered fair at 95% of unrestricted", atX1);
    print("size-tiered fair at 95% of exactly-min", atX2);
    print("size-tiered greedy at 95% of exactly-min", atX2greedy);
    assertThat(x2.maxThroughput()).isLessThan(x1.maxThroughput());
    assertThat(atX1.stallCount()).isPositive();
    assertThat(atX2.stallCount()).isZero();
    assertThat(atX2greedy.stallCount()).isZero();
  }

  /**
   * Theorem 1 (AC-F8): on one bursty arrival trace, every write completes no later when writes are
   * processed as soon as possible than when they are rate-limited. Scaled as
   * docs/papers/luo-carey.md#scaling suggests (1 M entries, M = 1.28 MB, 10 MB/s), rates scaled
   * alike.
   */
  @Test
  void theorem1AsapIsNeverSlowerThanALimitForAnyWrite() {
    DesSetup scaled = DesSetup.paper().withSizes(1_000_000, 1024, 1_310_720, 10.0 * (1 << 20));
    List<ArrivalProcess.Burst> bursts = List.of(new ArrivalProcess.Burst(200, 1500),
        new ArrivalProcess.Burst(800, 300));
    double duration = 3600;
    int expected = (int) (duration / 1800 * (200 * 1500 + 800 * 300)) + 10;
    double[] asap = new double[expected];
    double[] limit = new double[expected];
    DesPhaseResult a = des(scaled, "leveling", LEVELING, "greedy").running(duration,
        ArrivalProcess.bursts(bursts), (k, arrival, dq, done) -> asap[(int) k] = done - arrival);
    DesPhaseResult l = des(scaled.withAdmission("limit", 400), "leveling", LEVELING, "greedy")
        .running(duration, ArrivalProcess.bursts(bursts),
            (k, arrival, dq, done) -> limit[(int) k] = done - arrival);
    print("burst asap", a);
    print("burst limit 400/s", l);
    long n = Math.min(a.writesCompleted(), l.writesCompleted());
    assertThat(n).isGreaterThan(900_000);
    int worse = 0;
    for (int k = 0; k < n; k++) {
      if (asap[k] > limit[k] + 1e-9) {
        worse++;
      }
    }
    System.out.printf("DES theorem 1: %d of %d writes slower with asap%n", worse, n);
    assertThat(worse).isZero();
    assertThat(a.writeLatency().p99()).isLessThan(l.writeLatency().p99());
  }

  /**
   * AC-F11: with one merge thread and no constraint, a level-5 leveling merge (T = 10, L = 5) at
   * the arrival rate W = 2B/(TL) lets about 2·T^4/L = 4000 flushed components pile up.
   */
  @Test
  void singleThreadLetsFlushedComponentsPileUpDuringALevelFiveMerge() {
    long m = 1000;
    DesSetup setup = DesSetup.paper().withSizes(90_000_000, 1024, m * 1024, 100.0 * (1 << 20))
        .withConstraint("none");
    double entriesPerSecond = setup.bandwidth() / setup.entrySize();
    double rate = 2 * entriesPerSecond / (10 * 5);
    DesPhaseResult r = des(setup, "leveling", LEVELING, "single-thread")
        .running(12_000, ArrivalProcess.constant(rate));
    MergeLogEntry longest = null;
    for (MergeLogEntry e : r.merges()) {
      if (e.outputLevel() == 5 && (longest == null
          || e.completedAt() - e.startedAt() > longest.completedAt() - longest.startedAt())) {
        longest = e;
      }
    }
    assertThat(longest).as("a level-5 merge ran").isNotNull();
    double flushesDuring = (longest.completedAt() - longest.startedAt()) * rate / m;
    System.out.printf("DES AC-F11: level-5 merge %.0f s, %.0f flushes during it, max flushed"
        + " components %d%n", longest.completedAt() - longest.startedAt(), flushesDuring,
        r.maxFlushedComponents());
    assertThat(r.maxFlushedComponents()).isBetween(3000, 5000);
  }
}
