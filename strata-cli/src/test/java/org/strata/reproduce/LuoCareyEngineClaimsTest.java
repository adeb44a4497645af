package org.strata.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.dataset.SecondaryMaintenance;
import org.strata.ycsb.twophase.PhaseSetup;

/**
 * The verdicts of the claims judged on the engine (AC-P1, AC-P3, AC-F9, AC-F10, AC-X1 to AC-X3,
 * AC-X5), each on made-up measurements that should hold and on ones that should not.
 */
class LuoCareyEngineClaimsTest {
  private static final String W = " (test)";

  // ---- AC-P1 -----------------------------------------------------------------------------------

  @Test
  void p1HoldsWhenBothDeclineAndTheMaximaAgree() {
    double[] down = {1200, 1150, 1100, 1000, 900, 800};
    double[] down2 = {1100, 1100, 1000, 950, 900, 850};
    Claim c = LuoCareyEngine.p1(down, down2, 1025, 983, 0.15, W);
    assertThat(c.verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.ours()).contains("round-robin 1150 → 900");
  }

  @Test
  void p1FailsWhenAStrategyDoesNotDeclineOrTheMaximaDiffer() {
    double[] down = {1200, 1150, 1100, 1000, 900, 800};
    double[] flat = {1000, 1000, 1000, 1000, 1000, 1000};
    Claim notDown = LuoCareyEngine.p1(down, flat, 1025, 1000, 0.15, W);
    assertThat(notDown.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(notDown.reason()).isEqualTo("choose-best's throughput does not decline");
    Claim apart = LuoCareyEngine.p1(down, down, 1000, 1200, 0.15, W);
    assertThat(apart.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(apart.reason()).contains("maxima differ by more than 15%");
  }

  @Test
  void halvesSplitAnOddSeriesWithTheMiddleInTheSecondHalf() {
    assertThat(LuoCareyEngine.halves(new double[] {2, 4, 6})).containsExactly(2, 5);
    assertThat(LuoCareyEngine.halves(new double[] {})[0]).isNaN();
  }

  // ---- AC-P3 -----------------------------------------------------------------------------------

  private static MergeRecord merge(int levelZero) {
    return new MergeRecord(0, 1, 0, levelZero + 3, levelZero, 10, 10, 100, 1, "ok");
  }

  private static SortedMap<Integer, Double> ratios(double... r) {
    SortedMap<Integer, Double> m = new TreeMap<>();
    for (int i = 0; i < r.length; i++) {
      m.put(i + 1, r[i]);
    }
    return m;
  }

  @Test
  void p3HoldsOnWideLevelZeroMergesAndOutgrownLevels() {
    List<MergeRecord> merges = List.of(merge(4), merge(8), merge(12), merge(0), merge(0));
    Claim c = LuoCareyEngine.p3(merges, true, ratios(2.4, 1.9), ratios(1.05, 1.0), 4, 1.5, W);
    assertThat(c.verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.ours()).startsWith("3 level-0 merges took 8 level-0 components on average"
        + " (most 12)");
  }

  @Test
  void p3FailsOnMergesOfTheTriggerOrALevelWithinItsTarget() {
    Claim narrow = LuoCareyEngine.p3(List.of(merge(4), merge(4)), true, ratios(2.4, 1.9),
        ratios(1, 1), 4, 1.5, W);
    assertThat(narrow.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(narrow.reason()).contains("took 4 components on average, not more than 4");
    Claim kept = LuoCareyEngine.p3(List.of(merge(9)), true, ratios(2.4, 1.2), ratios(1, 1), 4,
        1.5, W);
    assertThat(kept.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(kept.reason()).contains("not every intermediate level averaged 1.5×");
    assertThat(LuoCareyEngine.p3(List.of(), true, ratios(), ratios(), 4, 1.5, W).reason())
        .contains("no level-0 merge completed").contains("no intermediate level");
  }

  @Test
  void outgrowthAveragesEachIntermediateLevelAfterTheWarmUp() {
    org.strata.ycsb.twophase.TwoPhaseConfig cfg = LuoCareyConfig.bind(
        new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(Map.of(
            "dataset", Map.of("merge-policy", Map.of("name", "partitioned-leveling",
                "parameters", Map.of("level1-size", "1MB", "size-ratio", "10")),
                "merge-scheduler", Map.of("name", "leveldb-score")),
            "testing", Map.of("duration-seconds", 10, "warmup-seconds", 2))), "test", "t");
    List<SortedMap<Integer, Long>> samples = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      SortedMap<Integer, Long> s = new TreeMap<>();
      s.put(0, 1000L);
      s.put(1, i < 2 ? 0L : 2L << 20); // 2 MB against 1 MB after the warm-up
      if (i != 5) {
        s.put(2, 5L << 20); // 5 MB against 10 MB, absent from one sample
      }
      s.put(3, 100L << 20);
      samples.add(s);
    }
    LuoCareyEngine.Observation o = new LuoCareyEngine.Observation(PhaseSetup.Kind.TESTING,
        "leveldb-score", List.of(), 0, samples, samples.get(5), Map.of());
    SortedMap<Integer, Double> r = LuoCareyEngine.outgrowth(o, cfg);
    assertThat(r.keySet()).containsExactly(1, 2);
    assertThat(r.get(1)).isCloseTo(2.0, within(1e-9));
    assertThat(r.get(2)).isCloseTo(0.5 * 3 / 4, within(1e-9));
  }

  // ---- AC-F9, AC-F10 ---------------------------------------------------------------------------

  private static Map<String, LuoCareyEngine.QueryStat> kinds(double point, double shortScan,
      double longScan, double p99) {
    Map<String, LuoCareyEngine.QueryStat> m = new LinkedHashMap<>();
    m.put("point", new LuoCareyEngine.QueryStat("point", 8, (long) (point * 10), 10, p99));
    m.put("short-scan", new LuoCareyEngine.QueryStat("short-scan", 8, (long) (shortScan * 10),
        10, p99));
    m.put("long-scan", new LuoCareyEngine.QueryStat("long-scan", 4, (long) (longScan * 10), 10,
        p99));
    return m;
  }

  private static Map<String, Map<String, Map<String, LuoCareyEngine.QueryStat>>> policies(
      Map<String, LuoCareyEngine.QueryStat> tierFair,
      Map<String, LuoCareyEngine.QueryStat> tierGreedy,
      Map<String, LuoCareyEngine.QueryStat> levFair,
      Map<String, LuoCareyEngine.QueryStat> levGreedy) {
    Map<String, Map<String, Map<String, LuoCareyEngine.QueryStat>>> q = new LinkedHashMap<>();
    q.put("tiering", Map.of("fair", tierFair, "greedy", tierGreedy));
    q.put("leveling", Map.of("fair", levFair, "greedy", levGreedy));
    return q;
  }

  @Test
  void f9HoldsOnThePaperOrderings() {
    Claim c = LuoCareyEngine.f9(policies(kinds(1000, 100, 10, 1), kinds(1100, 120, 11, 1),
        kinds(1050, 300, 25, 1), kinds(1080, 320, 26, 1)), 0.15, W);
    assertThat(c.verdict()).as(c.reason()).isEqualTo(Verdict.HOLDS);
  }

  @Test
  void f9FailsOnEachBrokenOrdering() {
    // greedy below fair for tiering's long scans
    Claim greedy = LuoCareyEngine.f9(policies(kinds(1000, 100, 10, 1), kinds(1100, 120, 9, 1),
        kinds(1050, 300, 25, 1), kinds(1080, 320, 26, 1)), 0.15, W);
    assertThat(greedy.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(greedy.reason()).isEqualTo("fails: tiering long-scan: greedy/fair 0.9");
    // scans only 1.5x better under leveling
    Claim scans = LuoCareyEngine.f9(policies(kinds(1000, 100, 10, 1), kinds(1100, 120, 11, 1),
        kinds(1050, 150, 25, 1), kinds(1080, 180, 26, 1)), 0.15, W);
    assertThat(scans.reason()).contains("short-scan under fair: leveling/tiering 1.5")
        .doesNotContain("long-scan");
    // point lookups 30% apart
    Claim point = LuoCareyEngine.f9(policies(kinds(1000, 100, 10, 1), kinds(1100, 120, 11, 1),
        kinds(1300, 300, 25, 1), kinds(1400, 320, 26, 1)), 0.15, W);
    assertThat(point.reason()).contains("point lookups under fair").contains("under greedy");
  }

  @Test
  void f10HoldsWhenForcingCostsLittleThroughputAndHalvesP99() {
    Map<String, Map<String, LuoCareyEngine.QueryStat>> forced = Map.of("fair",
        kinds(950, 95, 9.5, 2), "greedy", kinds(990, 99, 9.9, 1));
    Map<String, Map<String, LuoCareyEngine.QueryStat>> atEnd = Map.of("fair",
        kinds(1000, 100, 10, 10), "greedy", kinds(1000, 100, 10, 5));
    assertThat(LuoCareyEngine.f10(forced, atEnd, 0.15, W).verdict())
        .isEqualTo(Verdict.HOLDS);
  }

  @Test
  void f10FailsWhenP99IsNotMuchLowerOrThroughputRises() {
    Map<String, Map<String, LuoCareyEngine.QueryStat>> atEnd = Map.of("fair",
        kinds(1000, 100, 10, 10), "greedy", kinds(1000, 100, 10, 5));
    Claim p99 = LuoCareyEngine.f10(Map.of("fair", kinds(950, 95, 9.5, 6), "greedy",
        kinds(990, 99, 9.9, 1)), atEnd, 0.15, W);
    assertThat(p99.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(p99.reason()).contains("fair point p99 0.6×").doesNotContain("greedy");
    Claim faster = LuoCareyEngine.f10(Map.of("fair", kinds(1100, 95, 9.5, 2), "greedy",
        kinds(990, 99, 9.9, 1)), atEnd, 0.15, W);
    assertThat(faster.reason()).isEqualTo("fails: fair point throughput 1.1×");
    Claim costly = LuoCareyEngine.f10(Map.of("fair", kinds(800, 95, 9.5, 2), "greedy",
        kinds(990, 99, 9.9, 1)), atEnd, 0.15, W);
    assertThat(costly.reason()).isEqualTo("fails: fair point throughput 0.8×");
  }

  @Test
  void querySlicesShareThePhaseByTurns() {
    long slice = 2_000_000_000L;
    assertThat(LuoCareyEngine.QuerySlices.kindAt(0, slice)).isZero();
    assertThat(LuoCareyEngine.QuerySlices.kindAt(3_000_000_000L, slice)).isEqualTo(1);
    assertThat(LuoCareyEngine.QuerySlices.kindAt(13_000_000_000L, slice)).isEqualTo(0);
    // 13 s: two full cycles (4 s each kind) and 1 s of point
    assertThat(LuoCareyEngine.QuerySlices.secondsOf(0, 13_000_000_000L, slice))
        .isCloseTo(5, within(1e-9));
    assertThat(LuoCareyEngine.QuerySlices.secondsOf(1, 13_000_000_000L, slice))
        .isCloseTo(4, within(1e-9));
    assertThat(LuoCareyEngine.QuerySlices.secondsOf(2, 15_000_000_000L, slice))
        .isCloseTo(4, within(1e-9));
    assertThat(LuoCareyEngine.QuerySlices.secondsOf(1, 15_000_000_000L, slice))
        .isCloseTo(5, within(1e-9));
  }

  // ---- AC-X1 to AC-X3, AC-X5 -------------------------------------------------------------------

  @Test
  void x1ComparesEagerOverLazyWithThePaperRatio() {
    assertThat(LuoCareyEngine.x1(1000, 800, 0.15, W).verdict()).isEqualTo(Verdict.HOLDS);
    Claim close = LuoCareyEngine.x1(1000, 950, 0.15, W); // eager barely below lazy
    assertThat(close.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(close.reason()).contains("outside");
    assertThat(LuoCareyEngine.x1(1000, 1100, 0.15, W).verdict())
        .isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(LuoCareyEngine.x1(0, 1100, 0.15, W).verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
  }

  private static Map<String, Map<String, double[]>> x2(double lazyFair, double lazyGreedy,
      double eagerFair, double eagerGreedy, double lazyVar, double eagerVar) {
    Map<String, Map<String, double[]>> m = new LinkedHashMap<>();
    m.put("lazy", Map.of("fair", new double[] {lazyFair, lazyVar}, "greedy",
        new double[] {lazyGreedy, lazyVar}));
    m.put("eager", Map.of("fair", new double[] {eagerFair, eagerVar}, "greedy",
        new double[] {eagerGreedy, eagerVar}));
    return m;
  }

  @Test
  void x2HoldsOnThePaperOrderingsAndFailsOnEachOther() {
    assertThat(LuoCareyEngine.x2(x2(300, 2, 600, 3, 0.05, 0.2), W).verdict())
        .isEqualTo(Verdict.HOLDS);
    Claim greedyWorse = LuoCareyEngine.x2(x2(300, 400, 600, 700, 0.05, 0.2), W);
    assertThat(greedyWorse.reason()).contains("lazy: greedy's p99 is not below fair's")
        .contains("eager: greedy's p99");
    Claim steadyEager = LuoCareyEngine.x2(x2(300, 2, 600, 3, 0.2, 0.05), W);
    assertThat(steadyEager.reason()).contains("lazy's throughput varies no less");
    Claim lazySlower = LuoCareyEngine.x2(x2(700, 2, 600, 3, 0.05, 0.2), W);
    assertThat(lazySlower.reason()).isEqualTo("under fair lazy's p99 is not below eager's");
  }

  private static Map<String, SortedMap<Double, Double>> x3(double fairLow, double fairTop,
      double greedyLow, double greedyTop) {
    Map<String, SortedMap<Double, Double>> m = new LinkedHashMap<>();
    m.put("fair", new TreeMap<>(Map.of(0.75, fairLow, 0.95, fairTop)));
    m.put("greedy", new TreeMap<>(Map.of(0.75, greedyLow, 0.95, greedyTop)));
    return m;
  }

  @Test
  void x3NeedsSmallBelowEightyAndAKneeAtTheTop() {
    assertThat(LuoCareyEngine.x3(x3(5, 600, 2, 50), 0.95, 1000, W).verdict())
        .isEqualTo(Verdict.HOLDS);
    Claim flat = LuoCareyEngine.x3(x3(5, 600, 2, 3), 0.95, 1000, W);
    assertThat(flat.reason()).isEqualTo("greedy: p99 at 95% is not 2× that below 80%");
    Claim large = LuoCareyEngine.x3(x3(1500, 6000, 2, 50), 0.95, 1000, W);
    assertThat(large.reason()).isEqualTo("fair: p99 below 80% is not small");
  }

  @Test
  void x5HoldsOnlyOnAnExactEagerIndex() {
    LuoCareyEngine.Correctness exact = new LuoCareyEngine.Correctness(SecondaryMaintenance.EAGER,
        60, 59, 0, 0, null, 400, 0, null);
    LuoCareyEngine.Correctness lazy = new LuoCareyEngine.Correctness(SecondaryMaintenance.LAZY,
        60, 59, 118, 0, null, 400, 0, null);
    Claim ok = LuoCareyEngine.x5(exact, lazy, W);
    assertThat(ok.verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(ok.ours()).contains("lazy, for contrast: 118 stale entries");
    Claim stale = LuoCareyEngine.x5(new LuoCareyEngine.Correctness(SecondaryMaintenance.EAGER,
        60, 59, 3, 0, null, 400, 0, null), lazy, W);
    assertThat(stale.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(stale.reason()).isEqualTo("3 stale secondary entries");
    Claim wrong = LuoCareyEngine.x5(new LuoCareyEngine.Correctness(SecondaryMaintenance.EAGER,
        60, 59, 0, 1, "p0: entry without record", 400, 2, "by_field1 = 7: expected [a], got"
            + " [a, b]"), lazy, W);
    assertThat(wrong.reason()).contains("1 disagreement(s)").contains("2 of 400 queries wrong");
    Claim vacuous = LuoCareyEngine.x5(new LuoCareyEngine.Correctness(
        SecondaryMaintenance.EAGER, 60, 0, 0, 0, null, 400, 0, null), lazy, W);
    assertThat(vacuous.reason()).contains("no upsert changed a secondary value");
  }
}
