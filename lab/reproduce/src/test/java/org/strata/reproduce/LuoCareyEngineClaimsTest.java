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
import org.strata.twophase.PhaseSetup;

/**
 * The verdicts of the claims judged on the engine (AC-P1, AC-P3, AC-P5, AC-F9, AC-F10, AC-X1 to
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
    org.strata.twophase.TwoPhaseConfig cfg = LuoCareyConfig.bind(
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
    assertThat(LuoCareyEngine.QuerySlices.kindAt(0, slice, 3)).isZero();
    assertThat(LuoCareyEngine.QuerySlices.kindAt(3_000_000_000L, slice, 3)).isEqualTo(1);
    assertThat(LuoCareyEngine.QuerySlices.kindAt(13_000_000_000L, slice, 3)).isEqualTo(0);
    // 13 s: two full cycles (4 s each kind) and 1 s of point
    assertThat(LuoCareyEngine.QuerySlices.secondsOf(0, 13_000_000_000L, slice, 3))
        .isCloseTo(5, within(1e-9));
    assertThat(LuoCareyEngine.QuerySlices.secondsOf(1, 13_000_000_000L, slice, 3))
        .isCloseTo(4, within(1e-9));
    assertThat(LuoCareyEngine.QuerySlices.secondsOf(2, 15_000_000_000L, slice, 3))
        .isCloseTo(4, within(1e-9));
    assertThat(LuoCareyEngine.QuerySlices.secondsOf(1, 15_000_000_000L, slice, 3))
        .isCloseTo(5, within(1e-9));
    // four selectivities in 30 s: three cycles of 8 s, then 2 s each for 1, 10 and 100
    assertThat(LuoCareyEngine.QuerySlices.kindAt(29_000_000_000L, slice, 4)).isEqualTo(2);
    assertThat(LuoCareyEngine.QuerySlices.secondsOf(0, 30_000_000_000L, slice, 4))
        .isCloseTo(8, within(1e-9));
    assertThat(LuoCareyEngine.QuerySlices.secondsOf(3, 30_000_000_000L, slice, 4))
        .isCloseTo(6, within(1e-9));
  }

  @Test
  void querySlicesRecordEachTurnUnderItsName() throws Exception {
    java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
    org.strata.twophase.QueryTarget target = new org.strata.twophase.QueryTarget() {
      @Override
      public void get(String key) {
        calls.incrementAndGet();
      }

      @Override
      public void scan(String from, int limit) {
        calls.incrementAndGet();
      }
    };
    LuoCareyEngine.Turns turns = new LuoCareyEngine.Turns(0.05, List.of(
        new LuoCareyEngine.Turn("a", 2, (t, r, keys) -> t.get("x")),
        new LuoCareyEngine.Turn("b", 1, (t, r, keys) -> t.scan("x", 1))));
    LuoCareyEngine.QuerySlices q = new LuoCareyEngine.QuerySlices(target, 100, 1, turns);
    Thread.sleep(300);
    q.close();
    Map<String, LuoCareyEngine.QueryStat> r = q.result();
    assertThat(r.keySet()).containsExactly("a", "b");
    assertThat(r.get("a").threads()).isEqualTo(2);
    assertThat(r.get("a").count()).isPositive();
    assertThat(r.get("b").count()).isPositive();
    assertThat(r.get("a").count() + r.get("b").count()).isEqualTo(calls.get());
    assertThat(r.get("a").seconds() + r.get("b").seconds()).isGreaterThanOrEqualTo(0.3);
  }

  // ---- AC-P5 -----------------------------------------------------------------------------------

  private static List<LuoCareyEngine.PartitionPoint> sweep(double[] maxima, double[] p99) {
    String[] sizes = {"32KB", "128KB", "2MB", "64MB"};
    String[] paper = {"16 MB", "64 MB", "1 GB", "32 GB"};
    List<LuoCareyEngine.PartitionPoint> out = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      out.add(new LuoCareyEngine.PartitionPoint(sizes[i], paper[i], maxima[i], p99[i], 0, 0));
    }
    return out;
  }

  @Test
  void p5HoldsOnFlatMaximaAndALargerP99AtTheLargestFiles() {
    Claim c = LuoCareyEngine.p5(sweep(new double[] {1000, 1100, 1050, 960},
        new double[] {10, 12, 30, 2000}), 0.15, W);
    assertThat(c.verdict()).as(c.reason()).isEqualTo(Verdict.HOLDS);
    assertThat(c.ours()).startsWith("32KB (16 MB): 1000 writes/s, p99 10 ms, 0 stalls (0 s);")
        .contains("p99 64MB/32KB 200×");
    // at the limits: 14.9% apart, exactly 2x
    assertThat(LuoCareyEngine.p5(sweep(new double[] {1000, 1149, 1000, 1000},
        new double[] {10, 1, 1, 20}), 0.15, W).verdict()).isEqualTo(Verdict.HOLDS);
  }

  @Test
  void p5FailsOnMaximaApartOrAP99ThatDoesNotGrow() {
    Claim apart = LuoCareyEngine.p5(sweep(new double[] {1000, 1200, 1050, 960},
        new double[] {10, 12, 30, 2000}), 0.15, W);
    assertThat(apart.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(apart.reason()).isEqualTo("the testing maxima differ by 1.25×, more than 15%");
    Claim same = LuoCareyEngine.p5(sweep(new double[] {1000, 1100, 1050, 960},
        new double[] {10, 12, 300, 19}), 0.15, W);
    assertThat(same.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(same.reason()).isEqualTo("p99 at 64MB is 1.9× that at 32KB, not 2×");
    assertThat(LuoCareyEngine.p5(sweep(new double[] {0, 0, 0, 0}, new double[] {10, 12, 30,
        2000}), 0.15, W).verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
  }

  @Test
  void aSweepPointIsTheBaseRunWithOnlyItsFileSizeChanged() throws Exception {
    com.fasterxml.jackson.databind.JsonNode quick;
    try (java.io.InputStream in = getClass().getResourceAsStream(
        "/reproduce/luo-carey-quick.json")) {
      quick = new com.fasterxml.jackson.databind.ObjectMapper().readTree(in);
    }
    com.fasterxml.jackson.databind.JsonNode base = quick.at("/engine/partitionedExactlyL0");
    com.fasterxml.jackson.databind.JsonNode c = LuoCareyEngine.partitionSize(base, "2MB",
        "1 GB");
    assertThat(c.at("/dataset/merge-policy/parameters/file-size").asText()).isEqualTo("2MB");
    assertThat(c.at("/testing/merge-policy/parameters/file-size").asText()).isEqualTo("2MB");
    assertThat(c.at("/testing/merge-policy/parameters/merge-exactly-l0-trigger").asText())
        .isEqualTo("true");
    assertThat(c.at("/name").asText()).isEqualTo("partition-size-2MB");
    assertThat(base.at("/dataset/merge-policy/parameters/file-size").asText())
        .isEqualTo("128KB");
    com.fasterxml.jackson.databind.node.ObjectNode back =
        (com.fasterxml.jackson.databind.node.ObjectNode) c.deepCopy();
    back.set("name", base.get("name"));
    back.set("description", base.get("description"));
    ((com.fasterxml.jackson.databind.node.ObjectNode) back.at("/dataset/merge-policy/parameters"))
        .put("file-size", "128KB");
    ((com.fasterxml.jackson.databind.node.ObjectNode) back.at("/testing/merge-policy/parameters"))
        .put("file-size", "128KB");
    assertThat(back).isEqualTo(base);
    assertThat(LuoCareyEngine.sizeText(64L << 20)).isEqualTo("64 MB");
    assertThat(LuoCareyEngine.sizeText(32L << 30)).isEqualTo("32 GB");
    assertThat(LuoCareyEngine.sizeText(32L << 10)).isEqualTo("32 KB");
    assertThat(LuoCareyEngine.sizeText((1L << 20) + 1)).isEqualTo("1048577 B");
  }

  // ---- AC-X4 -----------------------------------------------------------------------------------

  private static Map<String, LuoCareyEngine.QueryStat> bySelectivity(double... perSecond) {
    Map<String, LuoCareyEngine.QueryStat> m = new LinkedHashMap<>();
    String[] names = {"1", "10", "100", "1000"};
    for (int i = 0; i < names.length; i++) {
      m.put(names[i], new LuoCareyEngine.QueryStat(names[i], 8, (long) (perSecond[i] * 10), 10,
          1));
    }
    return m;
  }

  private static Map<String, Map<String, Map<String, LuoCareyEngine.QueryStat>>> strategies(
      Map<String, LuoCareyEngine.QueryStat> lazyFair,
      Map<String, LuoCareyEngine.QueryStat> lazyGreedy,
      Map<String, LuoCareyEngine.QueryStat> eagerFair,
      Map<String, LuoCareyEngine.QueryStat> eagerGreedy) {
    Map<String, Map<String, Map<String, LuoCareyEngine.QueryStat>>> q = new LinkedHashMap<>();
    q.put("lazy", Map.of("fair", lazyFair, "greedy", lazyGreedy));
    q.put("eager", Map.of("fair", eagerFair, "greedy", eagerGreedy));
    return q;
  }

  @Test
  void x4HoldsWhenGreedyLeadsEverywhereAndLessUnderEager() {
    Claim c = LuoCareyEngine.x4(strategies(bySelectivity(1000, 800, 200, 20),
        bySelectivity(1500, 1200, 300, 30), bySelectivity(1000, 800, 200, 20),
        bySelectivity(1100, 880, 220, 22)), W);
    assertThat(c.verdict()).as(c.reason()).isEqualTo(Verdict.HOLDS);
    assertThat(c.ours()).contains("lazy 1: 1000 → 1500 (1.5×)").contains("eager")
        .contains("mean 1.1×");
  }

  @Test
  void x4FailsOnGreedyBelowFairOrAGapNoSmallerUnderEager() {
    Claim below = LuoCareyEngine.x4(strategies(bySelectivity(1000, 800, 200, 20),
        bySelectivity(1500, 1200, 300, 30), bySelectivity(1000, 800, 200, 20),
        bySelectivity(1100, 880, 220, 19)), W);
    assertThat(below.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(below.reason()).isEqualTo("eager selectivity 1000: greedy/fair 0.95");
    Claim wider = LuoCareyEngine.x4(strategies(bySelectivity(1000, 800, 200, 20),
        bySelectivity(1100, 880, 220, 22), bySelectivity(1000, 800, 200, 20),
        bySelectivity(1500, 1200, 300, 30)), W);
    assertThat(wider.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(wider.reason()).isEqualTo("eager's gap (mean greedy/fair 1.5×) is not smaller"
        + " than lazy's (1.1×)");
    Claim none = LuoCareyEngine.x4(strategies(bySelectivity(0, 800, 200, 20),
        bySelectivity(0, 880, 220, 22), bySelectivity(1000, 800, 200, 20),
        bySelectivity(1050, 800, 200, 20)), W);
    assertThat(none.reason()).contains("lazy selectivity 1: greedy/fair");
  }

  @Test
  void x4TurnsQueryRangesOfEachSelectivity() throws Exception {
    LuoCareyConfig.SecondaryQueries q = new LuoCareyConfig.SecondaryQueries(8,
        List.of(1, 10, 100, 1000), 2, "by_field1", "test");
    LuoCareyEngine.Turns turns = LuoCareyEngine.x4Turns(q);
    assertThat(turns.names()).containsExactly("1", "10", "100", "1000");
    List<String> seen = new ArrayList<>();
    org.strata.twophase.QueryTarget target = new org.strata.twophase.QueryTarget() {
      @Override
      public void get(String key) {
        throw new AssertionError("not a secondary query");
      }

      @Override
      public void scan(String from, int limit) {
        throw new AssertionError("not a secondary query");
      }

      @Override
      public List<String> secondaryRange(String index, String from, String to) {
        seen.add(index + " " + (Long.parseLong(to) - Long.parseLong(from) + 1));
        assertThat(Long.parseLong(to)).isLessThan(200_000);
        return List.of();
      }
    };
    java.util.SplittableRandom r = new java.util.SplittableRandom(1);
    for (LuoCareyEngine.Turn t : turns.turns()) {
      assertThat(t.threads()).isEqualTo(8);
      t.query().run(target, r, 200_000);
    }
    assertThat(seen).containsExactly("by_field1 1", "by_field1 10", "by_field1 100",
        "by_field1 1000");
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
