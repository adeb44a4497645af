package org.strata.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.io.DeviceCounters;
import org.strata.reproduce.TriadReproduction.LevelZeroMerges;
import org.strata.reproduce.TriadReproduction.Measured;
import org.strata.reproduce.TriadReproduction.Run;
import org.strata.reproduce.TriadReproduction.Variant;

/**
 * The verdict logic of {@code triad} on made-up measurements (no engine runs): each claim follows
 * the measurement it is given, its paper value never does; a claim whose variant is missing, whose
 * runs did not hold their pace or lasted too short is not comparable with the reason; a claim on
 * runs with CL-SSTables is judged under both readings of their flushed bytes, and is not
 * comparable when the readings disagree.
 */
class TriadClaimsTest {

  static TriadReproductionConfig triadConfig(double minJudgeSeconds, double pacedOpsPerSecond) {
    return new TriadReproductionConfig(1000, 255, 65536, 0.5, 1000, List.of(0.1, 0.5), List.of(
        new TriadReproductionConfig.Workload("WS1", 0.01, 0.99),
        new TriadReproductionConfig.Workload("WS2", 0.2, 0.8),
        new TriadReproductionConfig.Workload("WS3", 1, 1)), 131072, 524288, 10, 4, 24, 0.4, 6, 1, 0,
        null, 0, 0, minJudgeSeconds, 0, pacedOpsPerSecond, 7, null, List.of(), 0, null);
  }

  private static Map<String, Claim> byId(List<Claim> claims) {
    return claims.stream().collect(Collectors.toMap(Claim::id, Function.identity(),
        (a, b) -> a, LinkedHashMap::new));
  }

  /**
   * A paced run: 100,000 operations in {@code seconds}, {@code flushed} bytes flushed (the index
   * of a CL-SSTable), {@code levelZero} bytes of level-0 components, {@code merged} bytes merged,
   * {@code mergeSeconds} of merging in 5 merges.
   */
  static Run paced(String w, Variant v, double pace, double seconds, long flushed,
      long levelZero, long merged, double mergeSeconds) {
    return new Run(w, v, 0.1, 100_000, pace, seconds, flushed, levelZero, merged, 1000,
        List.of(mergeSeconds / 5, mergeSeconds / 5, mergeSeconds / 5, mergeSeconds / 5,
            mergeSeconds / 5), true, 10, 5, LevelZeroMerges.NONE, Stalls.NONE,
        DeviceCounters.NONE, true);
  }

  /** A timed run of {@code ops} operations in 90 s. */
  static Run timed(String w, Variant v, double mix, long ops) {
    return new Run(w, v, mix, ops, 0, 90, 0, 0, 0, 0, List.of(), true, 0, 0,
        LevelZeroMerges.NONE, Stalls.NONE, DeviceCounters.NONE, false);
  }

  /** Paced runs of every workload and variant, from {flushed, levelZero, merged, mergeSecs}. */
  static List<Run> pacedRuns(Map<Variant, double[]> shape) {
    List<Run> runs = new ArrayList<>();
    for (String w : List.of("WS1", "WS2", "WS3")) {
      for (Map.Entry<Variant, double[]> e : shape.entrySet()) {
        double[] s = e.getValue();
        runs.add(paced(w, e.getKey(), 1000, 100, (long) s[0], (long) s[1], (long) s[2], s[3]));
      }
    }
    return runs;
  }

  @Test
  void withoutTriadLogEveryClaimThatNeedsItSaysSo() {
    Map<Variant, double[]> shape = new LinkedHashMap<>();
    shape.put(Variant.BASELINE, new double[] {1000, 1000, 4000, 10});
    shape.put(Variant.MEM, new double[] {1000, 1000, 3900, 9});
    shape.put(Variant.DISK, new double[] {1000, 1000, 1400, 5});
    String reason = "TRIAD-LOG not in this build: the engine refuses triad.log";
    Map<Variant, String> missing = new LinkedHashMap<>();
    missing.put(Variant.LOG, reason);
    missing.put(Variant.TRIAD, reason);
    Map<String, Claim> c = byId(TriadReproduction.claims(triadConfig(0, 1000),
        new Measured(pacedRuns(shape), List.of(), missing)));
    for (Claim x : c.values()) {
      boolean needsLog = !x.id().equals("T3-WS3-disk-wa") && !x.id().equals("T3-WS3-mem-wa")
          && !x.id().equals("T4-mem-over-baseline") && !x.id().equals("T4-disk-over-baseline");
      if (needsLog) {
        assertThat(x.verdict()).as(x.id()).isEqualTo(Verdict.NOT_COMPARABLE);
        assertThat(x.reason()).as(x.id()).contains("TRIAD-LOG not in this build");
      }
    }
    // DISK: WA 5 -> 2.4 is a 52% cut (paper 60% ± 20 points); MEM: 5 -> 4.9, 2% (paper 0 ± 10)
    assertThat(c.get("T3-WS3-disk-wa").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.get("T3-WS3-disk-wa").ours()).isEqualTo("0.52");
    assertThat(c.get("T3-WS3-mem-wa").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.get("T4-mem-over-baseline").verdict()).as("no timed runs")
        .isEqualTo(Verdict.NOT_COMPARABLE);
  }

  @Test
  void byteAndWriteAmplificationClaimsFollowThePacedRuns() {
    Map<Variant, double[]> shape = new LinkedHashMap<>();
    shape.put(Variant.BASELINE, new double[] {1000, 1000, 4000, 10});
    shape.put(Variant.MEM, new double[] {100, 100, 400, 1});
    shape.put(Variant.DISK, new double[] {1000, 1000, 1400, 5});
    shape.put(Variant.LOG, new double[] {1000, 1000, 2000, 6});
    // TRIAD: 10x fewer bytes, 10x less merge time, the same WA (5); no CL-SSTable bytes here
    shape.put(Variant.TRIAD, new double[] {100, 100, 400, 1});
    Map<String, Claim> c = byId(TriadReproduction.claims(triadConfig(0, 1000),
        new Measured(pacedRuns(shape), List.of(), Map.of())));
    assertThat(c.get("T1-WS1-bytes").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.get("T1-WS1-bytes").ours()).isEqualTo("10");
    assertThat(c.get("T1-WS1-merge-time").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.get("T1-WS1-wa").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.get("T7-WS1-precise").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.get("T2-WS2-wa").verdict()).as("WA unchanged is no 2x cut")
        .isEqualTo(Verdict.DOES_NOT_HOLD);

    // WA halved, bytes only 2x lower: the precise WS1 claim does not hold
    shape.put(Variant.TRIAD, new double[] {1000, 1000, 1500, 5});
    Map<String, Claim> d = byId(TriadReproduction.claims(triadConfig(0, 1000),
        new Measured(pacedRuns(shape), List.of(), Map.of())));
    assertThat(d.get("T1-WS1-bytes").verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(d.get("T1-WS1-wa").verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(d.get("T7-WS1-precise").verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(d.get("T2-WS2-wa").verdict()).as("5 -> 2.5 is a 2x cut").isEqualTo(
        Verdict.HOLDS);
  }

  @Test
  void aClaimOnCLSSTablesIsJudgedUnderBothReadingsAndNotComparableWhenTheyDisagree() {
    Map<Variant, double[]> shape = new LinkedHashMap<>();
    shape.put(Variant.BASELINE, new double[] {1000, 1000, 4000, 10});
    shape.put(Variant.MEM, new double[] {1000, 1000, 4000, 10});
    shape.put(Variant.DISK, new double[] {1000, 1000, 4000, 10});
    // LOG: flushes wrote 100 (indexes), its level-0 files hold 1000 (segments), merged 2000.
    // Index only: WA 21 (a 320% rise); with segments: WA 3 (a 40% cut).
    shape.put(Variant.LOG, new double[] {100, 1000, 2000, 6});
    shape.put(Variant.TRIAD, new double[] {100, 1000, 2000, 6});
    Map<String, Claim> c = byId(TriadReproduction.claims(triadConfig(0, 1000),
        new Measured(pacedRuns(shape), List.of(), Map.of())));
    Claim log = c.get("T3-WS3-log-wa");
    assertThat(log.verdict()).isEqualTo(Verdict.NOT_COMPARABLE);
    assertThat(log.reason()).contains("undefined for a CL-SSTable").contains("holds")
        .contains("does not hold");
    assertThat(log.ours()).contains("index only: -3.2").contains("log segment: 0.4");
    // Both readings agree on the bytes claim: 5000 / 750 and 5000 / 800 are both at least 5.
    shape.put(Variant.TRIAD, new double[] {100, 150, 650, 1});
    Map<String, Claim> d = byId(TriadReproduction.claims(triadConfig(0, 1000),
        new Measured(pacedRuns(shape), List.of(), Map.of())));
    assertThat(d.get("T1-WS1-bytes").verdict()).as("5000 / 750 and 5000 / 800")
        .isEqualTo(Verdict.HOLDS);
    assertThat(d.get("T1-WS1-bytes").reason()).contains("under both readings");
  }

  @Test
  void aPacedRunThatDidNotHoldItsPaceIsNotJudged() {
    Map<Variant, double[]> shape = new LinkedHashMap<>();
    for (Variant v : Variant.values()) {
      shape.put(v, new double[] {1000, 1000, 4000, 10});
    }
    List<Run> runs = new ArrayList<>(pacedRuns(shape));
    // the baseline on WS3 asked for 5,000/s and held 1,000/s
    runs.replaceAll(r -> r.workload().equals("WS3") && r.variant() == Variant.BASELINE
        ? paced("WS3", Variant.BASELINE, 5000, 100, 1000, 1000, 4000, 10) : r);
    Map<String, Claim> c = byId(TriadReproduction.claims(triadConfig(0, 1000),
        new Measured(runs, List.of(), Map.of())));
    assertThat(c.get("T3-WS3-disk-wa").verdict()).isEqualTo(Verdict.NOT_COMPARABLE);
    assertThat(c.get("T3-WS3-disk-wa").reason()).contains("held only 1000").contains("of the"
        + " 5000");
    assertThat(c.get("T1-WS1-bytes").verdict()).as("WS1 held its pace")
        .isNotEqualTo(Verdict.NOT_COMPARABLE);
  }

  @Test
  void throughputClaimsReadTheTimedRunsOnlyAndOverBaselineOnlyOnWs1AndWs3() {
    TriadReproductionConfig cfg = triadConfig(60, 1000);
    List<Run> timed = new ArrayList<>();
    for (double mix : List.of(0.1, 0.5)) {
      for (String w : List.of("WS1", "WS2", "WS3")) {
        for (Variant v : Variant.values()) {
          if (TriadReproduction.judgesThroughput(cfg, w, mix, v)) {
            long ops = switch (v) {
              case TRIAD -> 150_000;
              case MEM -> 142_500;
              case LOG -> 140_000;
              case DISK -> w.equals("WS2") ? 90_000 : 120_000; // slower than the baseline on WS2
              default -> 100_000;
            };
            timed.add(timed(w, v, mix, ops));
          }
        }
      }
    }
    assertThat(timed.stream().filter(r -> r.workload().equals("WS2")
        && r.variant() == Variant.DISK)).as("WS2 is not a breakdown workload").isEmpty();
    Map<String, Claim> c = byId(TriadReproduction.claims(cfg,
        new Measured(List.of(), timed, Map.of())));
    assertThat(c.get("T1-WS1-throughput-10-90").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.get("T1-WS1-throughput-10-90").ours()).isEqualTo("1.5");
    assertThat(c.get("T4-WS1-mem-share").ours()).isEqualTo("0.95");
    assertThat(c.get("T4-disk-over-baseline").verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.get("T4-disk-over-baseline").ours()).doesNotContain("WS2");
    assertThat(c.get("T1-WS1-bytes").verdict()).as("no paced runs")
        .isEqualTo(Verdict.NOT_COMPARABLE);
    // too short to judge
    Map<String, Claim> d = byId(TriadReproduction.claims(triadConfig(120, 1000),
        new Measured(List.of(), timed, Map.of())));
    assertThat(d.get("T1-WS1-throughput-10-90").verdict()).isEqualTo(Verdict.NOT_COMPARABLE);
    assertThat(d.get("T1-WS1-throughput-10-90").reason()).contains("less than the 120 s");
  }

  @Test
  void levelZeroMergesCountOnlyMergesThatTookLevelZeroFiles() {
    LevelZeroMerges z = LevelZeroMerges.of(List.of(
        new MergeRecord(0, 1, 0, 5, 4, 10, 10, 100, 1, "ok"),
        new MergeRecord(0, 1, 0, 3, 0, 10, 10, 100, 2, "ok"),
        new MergeRecord(0, 1, 0, 9, 7, 10, 10, 100, 1, "ok")));
    assertThat(z).isEqualTo(new LevelZeroMerges(2, 11, 7));
    assertThat(z.meanFiles()).isEqualTo(5.5);
    assertThat(LevelZeroMerges.of(List.of()).meanFiles()).isNaN();
  }

  @Test
  void badFieldsAreRefusedNamingThem() {
    assertThatThrownBy(() -> triadConfig(0, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pacedOpsPerSecond must be 0 to 100000000");
    for (double bad : new double[] {-1, 86_401}) {
      assertThatThrownBy(() -> new TriadReproductionConfig(1000, 255, 65536, 0.5, 1000,
          List.of(0.1), List.of(new TriadReproductionConfig.Workload("WS1", 0.01, 0.99)), 131072,
          524288, 10, 4, 24, 0.4, 6, 1, 0, null, 0, 0, 60, bad, 0, 7, null, List.of(), 0, null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("throughputSeconds must be 0 to 86400");
    }
    assertThatThrownBy(() -> new TriadReproductionConfig(1000, 255, 65536, 0.5, 1000,
        List.of(0.1), List.of(new TriadReproductionConfig.Workload("WS1", 0.01, 0.99)), 131072,
        524288, 10, 4, 24, 0.4, 6, 1, 0, null, 0, 0, 60, 0, 0, 7,
        new ObjectMapper().createObjectNode()
        .put("write-bandwidth", "1KB"), List.of(), 0, null))
        .hasMessageContaining("device.write-bandwidth");
  }
}
