package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DesCommandTest {
  @TempDir Path tmp;

  /**
   * The scaled setup of docs/papers/luo-carey.md#scaling: 1 M entries, M = 1.28 MB, 10 MB/s, 12
   * minutes.
   */
  private static final String[] SCALED = {"--entries", "1000000", "--memory-component",
      "1280KB", "--bandwidth", "10MB", "--duration", "720"};

  private static String[] args(String... more) {
    String[] all = new String[SCALED.length + more.length + 1];
    all[0] = "des";
    System.arraycopy(SCALED, 0, all, 1, SCALED.length);
    System.arraycopy(more, 0, all, 1 + SCALED.length, more.length);
    return all;
  }

  @Test
  void bothPhasesWithAComparisonSeriesAndCharts() throws Exception {
    Path series = tmp.resolve("series.csv");
    Path charts = tmp.resolve("charts");
    CliTest.Result r = CliTest.run(args("--policy", "tiering", "--param", "size-ratio=3",
        "--param", "preemptive=false", "--compare", "single-thread,fair,greedy", "--json",
        "--series", series.toString(), "--chart", charts.toString()));
    assertThat(r.code()).as(r.err()).isZero();
    // progress on stderr, one line per simulated phase, stdout JSON only
    assertThat(r.err().lines().toList()).hasSize(4).first().asString()
        .isEqualTo("des: tiering: testing phase, fair scheduler (1 of 4)");
    assertThat(r.err().lines().toList().get(3))
        .matches("des: tiering: running phase, greedy scheduler \\(4 of 4\\), \\d+ s so far,"
            + " about \\d+ s left");
    JsonNode j = new ObjectMapper().readTree(r.out());
    double max = j.get("testing").get("maxThroughput").asDouble();
    assertThat(max).isPositive();
    JsonNode running = j.get("running");
    assertThat(running.get("scheduler").asText()).isEqualTo("single-thread");
    assertThat(running.get("arrivalRate").asDouble()).isCloseTo(0.95 * max,
        org.assertj.core.api.Assertions.within(1e-6 * max));
    for (String f : List.of("p50", "p90", "p99", "p99.9", "max")) {
      assertThat(running.get("writeLatency").get(f).asDouble()).isGreaterThanOrEqualTo(0);
      assertThat(running.get("processingLatency").get(f).asDouble())
          .isLessThanOrEqualTo(running.get("writeLatency").get("max").asDouble() + 1e-9);
    }
    assertThat(running.get("stalls").get("count").asInt()).isGreaterThanOrEqualTo(0);
    assertThat(running.get("maxDiskComponents").asInt()).isPositive();
    assertThat(j.get("comparison")).hasSize(3);
    assertThat(j.get("comparison").get(2).get("scheduler").asText()).isEqualTo("greedy");
    List<String> lines = Files.readAllLines(series);
    assertThat(lines.get(0)).startsWith("phase,scheduler,second,arrivals,completed,queue,");
    assertThat(lines).hasSize(1 + 4 * 720);
    for (String png : List.of("des-throughput.png", "des-components.png", "des-latency.png")) {
      byte[] head = Files.readAllBytes(charts.resolve(png));
      assertThat(head[1]).isEqualTo((byte) 'P');
      assertThat(head[2]).isEqualTo((byte) 'N');
    }
  }

  /**
   * AC-F4 in the paper's form through the command line: Luo & Carey's leveling ({@code
   * pairwise=true}) at 95% of the fair maximum; greedy never stalls and every merge takes at most
   * two runs, fair stalls; the default leveling's greedy stalls and merges wider.
   */
  @Test
  void levelingInThePapersFormDoesNotStallUnderGreedy() throws Exception {
    CliTest.Result r = CliTest.run(args("--policy", "leveling", "--param", "size-ratio=10",
        "--param", "pairwise=true", "--compare", "fair,greedy", "--json"));
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertThat(j.get("setup").get("parameters").get("pairwise").asText()).isEqualTo("true");
    JsonNode fair = j.get("comparison").get(0);
    JsonNode greedy = j.get("comparison").get(1);
    assertThat(greedy.get("scheduler").asText()).isEqualTo("greedy");
    assertThat(greedy.get("stalls").get("count").asInt()).isZero();
    assertThat(fair.get("stalls").get("count").asInt()).isPositive();
    assertThat(greedy.get("merges").asInt()).isPositive();
    List<String> widths = new java.util.ArrayList<>();
    greedy.get("mergeInputs").fieldNames().forEachRemaining(widths::add);
    assertThat(widths).isSubsetOf("1", "2");
    CliTest.Result fluid = CliTest.run(args("--policy", "leveling", "--param", "size-ratio=10",
        "--param", "preemptive=false", "--scheduler", "greedy", "--json"));
    JsonNode f = new ObjectMapper().readTree(fluid.out()).get("running");
    assertThat(f.get("stalls").get("count").asInt()).isPositive();
    List<String> fluidWidths = new java.util.ArrayList<>();
    f.get("mergeInputs").fieldNames().forEachRemaining(fluidWidths::add);
    assertThat(fluidWidths).contains("3");
  }

  @Test
  void runningPhaseAloneAtAGivenRateAndTextOutput() throws Exception {
    CliTest.Result r = CliTest.run(args("--policy", "leveling", "--phase", "running", "--rate",
        "300", "--scheduler", "fair"));
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("running (fair, 300.0 writes/s, 720 s)")
        .contains("write latency (ms):").contains("processing latency (ms):")
        .doesNotContain("testing (");
  }

  @Test
  void badInputIsAUsageErrorThatNamesWhatIsAllowed() {
    CliTest.Result phase = CliTest.run(args("--policy", "tiering", "--phase", "both-ish"));
    assertThat(phase.code()).isEqualTo(2);
    assertThat(phase.err()).contains("--phase must be testing, running or both");
    CliTest.Result policy = CliTest.run(args("--policy", "no-such-policy"));
    assertThat(policy.code()).isEqualTo(2);
    assertThat(policy.err()).contains("no-such-policy").contains("tiering");
    CliTest.Result scheduler = CliTest.run(args("--policy", "tiering", "--scheduler", "eager"));
    assertThat(scheduler.code()).isEqualTo(2);
    assertThat(scheduler.err()).contains("eager").contains("greedy");
    CliTest.Result burst = CliTest.run(args("--policy", "tiering", "--phase", "running",
        "--burst", "2000/1500"));
    assertThat(burst.code()).isEqualTo(2);
    assertThat(burst.err()).contains("RATE:SECONDS");
    CliTest.Result rate = CliTest.run(args("--policy", "tiering", "--phase", "running"));
    assertThat(rate.code()).isEqualTo(2);
    assertThat(rate.err()).contains("--rate");
    CliTest.Result constraint = CliTest.run(args("--policy", "tiering", "--constraint", "both"));
    assertThat(constraint.code()).isEqualTo(2);
    assertThat(constraint.err()).contains("global, local, none");
  }

  @Test
  void aPolicyThatNeedsPartitionedRunsIsRefusedBeforeAnythingRuns() {
    CliTest.Result r = CliTest.run(args("--policy", "partitioned-leveling"));
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains("merge-policy 'partitioned-leveling' cannot run on the"
        + " discrete-event simulator: it needs partitioned runs and key ranges")
        .contains("strata two-phase");
    assertThat(r.out()).isEmpty();
  }

  /**
   * Several policies run the same phases: each one's JSON equals its own run alone, a
   * POLICY:KEY=VALUE parameter reaches only its policy, the text ends with one table, and one set
   * of charts shows every policy.
   */
  @Test
  void comparesPoliciesOnTheSamePhases() throws Exception {
    Path charts = tmp.resolve("charts");
    CliTest.Result r = CliTest.run(args("--policy", "tiering,leveling", "--param",
        "preemptive=false", "--param", "tiering:size-ratio=3", "--json", "--chart",
        charts.toString()));
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertThat(j.get("policies")).hasSize(2);
    assertThat(j.at("/policies/0/setup/policy").asText()).isEqualTo("tiering");
    assertThat(j.at("/policies/0/setup/parameters/size-ratio").asText()).isEqualTo("3");
    assertThat(j.at("/policies/1/setup/parameters").has("size-ratio")).isFalse();
    assertThat(j.at("/policies/1/setup/parameters/preemptive").asText()).isEqualTo("false");
    JsonNode alone = new ObjectMapper().readTree(CliTest.run(args("--policy", "leveling",
        "--param", "preemptive=false", "--json")).out());
    assertThat(j.at("/policies/1/testing")).isEqualTo(alone.get("testing"));
    assertThat(j.at("/policies/1/running")).isEqualTo(alone.get("running"));
    assertThat(Files.size(charts.resolve("des-throughput.png"))).isPositive();
    CliTest.Result text = CliTest.run(args("--policy", "tiering,leveling", "--param",
        "tiering:size-ratio=3", "--phase", "testing"));
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).contains("== tiering {size-ratio=3}").contains("== leveling {}")
        .containsPattern("\\ntiering +[0-9,]+ ").containsPattern("\\nleveling +[0-9,]+ ");
    CliTest.Result bad = CliTest.run(args("--policy", "tiering,tiering"));
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("names a policy twice");
  }

  /** --write-rate is bytes per second, as flow-control.write-rate, in every size form. */
  @Test
  void writeRateIsASizePerSecond() throws Exception {
    CliTest.Result a = CliTest.run(args("--policy", "tiering", "--admission", "limit",
        "--write-rate", "2MB", "--phase", "testing", "--json"));
    assertThat(a.code()).as(a.err()).isZero();
    CliTest.Result b = CliTest.run(args("--policy", "tiering", "--admission", "limit",
        "--write-rate", "2048KB", "--phase", "testing", "--json"));
    CliTest.Result c = CliTest.run(args("--policy", "tiering", "--admission", "limit",
        "--write-rate", "100KB", "--phase", "testing", "--json"));
    ObjectMapper m = new ObjectMapper();
    assertThat(m.readTree(a.out()).get("testing")).isEqualTo(m.readTree(b.out()).get("testing"));
    // 100KB/s of 1KB entries: at most 100 writes/s, far below the 2MB/s run's maximum.
    assertThat(m.readTree(c.out()).at("/testing/maxThroughput").asDouble())
        .isLessThanOrEqualTo(100.0 * 1.01)
        .isLessThan(m.readTree(a.out()).at("/testing/maxThroughput").asDouble());
    CliTest.Result bad = CliTest.run(args("--policy", "tiering", "--write-rate", "fast"));
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("--write-rate").contains("fast");
  }
}
