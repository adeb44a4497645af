package org.strata.peers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.twophase.PhaseResult;

/**
 * A tiny comparison end to end, Strata, RocksDB leveled and universal, and Hyracks: every field
 * of comparison.json and every column of comparison.md for every system, the charts, and each
 * system's own report; every system read back every key it loaded.
 */
class CompareRunnerTest {
  @TempDir Path tmp;

  /** The tiny two-phase configuration with {@code systems}. */
  static String config(String systems, int records) {
    return """
        {"name": "tiny",
         "dataset": {"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
                     "merge-scheduler": {"name": "greedy"},
                     "memory-component": {"size": "128KB", "count": 2},
                     "io": {"write-rate-limit": "4MB", "force-bytes": "512KB"},
                     "page-cache": {"size": "8MB"}},
         "load": {"records": %d},
         "records": {"fields": 6, "field-length": 50},
         "testing": {"duration-seconds": 3, "warmup-seconds": 1},
         "running": {"duration-seconds": 3, "drain-seconds": 1, "utilizations": [0.5]},
         "chart-window-seconds": 1,
         "systems": %s}
        """.formatted(records, systems);
  }

  static final String CONFIG = config("""
      [{"name": "strata", "label": "strata-tiering"},
       {"name": "rocksdb", "compaction": "leveled"},
       {"name": "rocksdb", "compaction": "universal"},
       {"name": "hyracks"}]""", 2500);

  @Test
  void everySystemHasEveryFigureInTheJsonAndTheTable() throws Exception {
    CompareConfig cfg = CompareConfigJson.parse(CONFIG, "test", "tiny");
    Path out = tmp.resolve("out");
    List<CompareRunner.Outcome> outcomes = new CompareRunner(cfg, out, null, false)
        .run(CompareRunner.Mode.ALL, 0);
    assertThat(outcomes).hasSize(4);

    JsonNode j = new ObjectMapper().readTree(out.resolve("comparison.json").toFile());
    assertThat(j.at("/machine/cores").asInt()).isPositive();
    assertThat(j.at("/machine/loadAverageAfter").size()).isPositive();
    assertThat(j.at("/quote").asText()).contains("Quote");
    List<String> labels = List.of("strata-tiering", "rocksdb-leveled", "rocksdb-universal",
        "hyracks-prefix");
    assertThat(j.at("/systems").size()).isEqualTo(4);
    for (int i = 0; i < 4; i++) {
      JsonNode s = j.at("/systems/" + i);
      String label = labels.get(i);
      assertThat(s.at("/label").asText()).isEqualTo(label);
      assertThat(s.at("/system").asText()).isEqualTo(label.substring(0, label.indexOf('-')));
      assertThat(s.at("/load/recordsPerSecond").asDouble()).as(label).isPositive();
      assertThat(s.at("/load/verifiedKeys").asLong()).as(label).isEqualTo(2500);
      assertThat(s.at("/testing/maxThroughput").asDouble()).as(label).isPositive();
      assertThat(s.at("/running/arrivalRate").asDouble()).as(label)
          .isCloseTo(0.5 * s.at("/testing/maxThroughput").asDouble(),
              org.assertj.core.data.Percentage.withPercentage(1));
      assertThat(s.at("/running/throughput").asDouble()).as(label).isPositive();
      for (String p : List.of("p50", "p99", "p99.9", "max")) {
        assertThat(s.at("/running/writeLatency").has(p)).as(label + " " + p).isTrue();
      }
      assertThat(s.at("/running/writeLatency/max").asDouble())
          .isGreaterThanOrEqualTo(s.at("/running/writeLatency/p50").asDouble());
      assertThat(s.at("/running/stalls/seconds").isNumber()).as(label).isTrue();
      assertThat(s.at("/running/backlogAtEnd/queuedWrites").isNumber()).as(label).isTrue();
      assertThat(s.at("/running/backlogAtEnd/pendingMergeBytes").isNumber()).as(label).isTrue();
      assertThat(s.at("/writeAmplification").asDouble()).as(label).isGreaterThan(0.5);
      assertThat(s.at("/spaceAmplification").asDouble()).as(label).isGreaterThan(0.5);
      // Averaged over the running phase's seconds: every system reports its space each second.
      assertThat(s.at("/meanSpaceAmplification").asDouble()).as(label).isGreaterThan(0.5);
      assertThat(s.at("/sustainable/verdict").asText()).as(label)
          .isIn("sustainable", "unsustainable", "too short to judge");
      assertThat(s.at("/sustainable/reasons").size()).as(label).isPositive();
      assertThat(s.at("/testing/ioBudgetUse/use").asDouble()).as(label).isPositive();
      assertThat(s.at("/testing/ioBudgetUse/use").asDouble()).as(label).isCloseTo(
          s.at("/testing/ioBudgetUse/bytesPerSecond").asDouble() / (4 << 20),
          org.assertj.core.data.Offset.offset(1e-9));
      assertThat(s.at("/ratioToFirst/I~1O budget use").isNumber()).as(label).isTrue();
      if (label.startsWith("hyracks")) {
        // Hyracks' throttle counts what it admits, flush pages apart from merge pages.
        assertThat(s.at("/testing/ioBudgetUse/countedAs").asText()).isEqualTo("written");
        assertThat(s.at("/testing/ioBudgetUse/budgetCounters/flushBytesAdmitted").asLong())
            .isPositive();
        assertThat(s.at("/testing/ioBudgetUse/budgetCounters/otherBytesAdmitted").asLong())
            .isZero();
        assertThat(s.at("/testing/ioBudgetUse/budgetCounters/throttleWaitNanos").asLong())
            .isPositive();
      }
      for (String phase : List.of("/load/gc", "/testing/gc", "/running/gc")) {
        assertThat(s.at(phase + "/pauses").isIntegralNumber()).as(label + phase).isTrue();
        assertThat(s.at(phase + "/peakHeapBytes").asLong()).as(label + phase).isPositive();
        assertThat(s.at(phase + "/p99Millis").isNumber()).as(label + phase).isTrue();
      }
      if (i > 0) {
        assertThat(s.at("/ratioToFirst/testing max W").asDouble()).as(label).isCloseTo(
            s.at("/testing/maxThroughput").asDouble()
                / j.at("/systems/0/testing/maxThroughput").asDouble(),
            org.assertj.core.data.Offset.offset(1e-9));
      }
      assertThat(out.resolve(label).resolve("report.md")).exists();
      JsonNode own = new ObjectMapper().readTree(out.resolve(label).resolve("summary.json")
          .toFile());
      assertThat(own.at("/running/sustainable/verdict").asText())
          .isEqualTo(s.at("/sustainable/verdict").asText());
      assertThat(own.at("/machine/fileSystem").asText()).isNotEmpty();
    }

    String report = Files.readString(out.resolve("comparison.md"));
    // A summary of a few columns first, then every figure.
    assertThat(report.substring(report.indexOf("## Summary")).lines()
        .filter(l -> l.startsWith("| system |")).findFirst().orElseThrow())
        .isEqualTo("| system | testing max W | served/s | p99 ms | stalled s | queued at end"
            + " | verdict |");
    String md = report.substring(report.indexOf("## All figures"));
    String header = md.lines().filter(l -> l.startsWith("| system |")).findFirst().orElseThrow();
    for (String column : List.of("load rec/s", "testing max W", "I/O budget"
        + " use", "arrivals/s", "served/s",
        "write p50 ms", "p99 ms", "p99.9 ms", "max ms", "arrival lag max ms", "stalled s", "queued"
            + " at end", "WA", "SA",
        "SA mean", "verdict")) {
      assertThat(header).contains("| " + column + " |");
    }
    int columns = header.split("\\|", -1).length;
    for (String label : labels) {
      String row = md.lines().filter(l -> l.startsWith("| " + label + " |")).findFirst()
          .orElseThrow();
      assertThat(row.split("\\|", -1)).as(label).hasSize(columns);
      assertThat(row).as(label).doesNotContain("| - |").containsPattern("sustainable \\|$");
      if (!label.equals("strata-tiering")) {
        assertThat(row).contains("x)");
      }
    }
    assertThat(report).contains("Machine: ").contains("Load average").contains("OS cache")
        .contains("## Collector pauses and peak heap").contains("| rocksdb-leveled | testing |")
        .contains("JVM side of the driver");
    assertThat(j.at("/machine/maxHeapBytes").asLong()).isPositive();
    for (String png : List.of(ComparisonCharts.THROUGHPUT, ComparisonCharts.COMPONENTS,
        ComparisonCharts.LATENCY)) {
      BufferedImage img = ImageIO.read(out.resolve(png).toFile());
      assertThat(img).as(png).isNotNull();
      assertThat(report).contains("](" + png + ")");
    }
    for (String label : labels) {
      assertThat(out.resolve(label).resolve("data")).doesNotExist();
    }
  }

  @Test
  void aLoadOnlyComparisonRunsStrataThroughBothApis() throws Exception {
    String cfgText = config("""
        [{"name": "strata"}, {"name": "rocksdb"}, {"name": "hyracks"}]""", 1500);
    CompareConfig cfg = CompareConfigJson.parse(cfgText, "test", "tiny");
    Path out = tmp.resolve("load");
    List<CompareRunner.Outcome> outcomes = new CompareRunner(cfg, out, null, false)
        .run(CompareRunner.Mode.LOAD, 0);
    assertThat(outcomes).extracting(o -> o.result().label()).containsExactly(
        "strata-tiering-dataset", "strata-tiering-store", "rocksdb-leveled", "hyracks-prefix");
    assertThat(outcomes).allSatisfy(o -> {
      assertThat(o.result().testing()).isNull();
      assertThat(o.result().verifiedKeys()).isEqualTo(1500);
    });
    JsonNode j = new ObjectMapper().readTree(out.resolve("comparison.json").toFile());
    assertThat(j.at("/mode").asText()).isEqualTo("load");
    assertThat(j.at("/systems/1/load/recordsPerSecond").asDouble()).isPositive();
    assertThat(j.at("/systems/1/description").asText()).contains("LsmStore.put");
    assertThat(j.at("/systems/0/description").asText()).contains("dataset API");
    assertThat(Files.readString(out.resolve("comparison.md"))).contains("| load rec/s |");
  }

  @Test
  void aSustainableRateSearchReportsTheRatesTriedAndTheLatencyAt95() throws Exception {
    String cfgText = config("[{\"name\": \"rocksdb\", \"compaction\": \"universal\"}]",
        2500);
    CompareConfig cfg = CompareConfigJson.parse(cfgText, "test", "tiny");
    Path out = tmp.resolve("find");
    List<CompareRunner.Outcome> outcomes = new CompareRunner(cfg, out, null, false)
        .run(CompareRunner.Mode.FIND_SUSTAINABLE, 2);
    CompareRunner.Outcome o = outcomes.get(0);
    assertThat(o.search().phaseSeconds()).isEqualTo(2);
    double w = o.result().testing().throughput();
    // The first rate tried is the testing maximum; every later one halves a bracket in [0, W].
    assertThat(o.result().runs().get(0).arrivalRate()).isCloseTo(w,
        org.assertj.core.data.Percentage.withPercentage(1));
    assertThat(o.result().runs()).allSatisfy(r -> assertThat(r.arrivalRate())
        .isLessThanOrEqualTo(w * 1.01));
    assertThat(o.search().unsustainable() - o.search().sustainable())
        .isLessThanOrEqualTo(0.05 * o.search().unsustainable() + 1e-9);
    JsonNode s = new ObjectMapper().readTree(out.resolve("rocksdb-universal")
        .resolve("sustainable.json").toFile());
    assertThat(s.at("/tried").size()).isEqualTo(o.result().runs().size());
    assertThat(s.at("/quote").asText()).contains("sustainable");
    if (o.search().sustainable() > 0) {
      assertThat(s.at("/at95/arrivalRate").asDouble()).isCloseTo(0.95 * o.search().sustainable(),
          org.assertj.core.data.Percentage.withPercentage(1));
    }
    JsonNode c = new ObjectMapper().readTree(out.resolve("comparison.json").toFile());
    assertThat(c.at("/systems/0/sustainableRate/highestSustainableRate").asDouble())
        .isEqualTo(o.search().sustainable());
    // Space amplification comes from the phase the running columns report (at 95% of the
    // sustainable rate), not from the first rate tried (the overloaded testing maximum).
    PhaseResult reported = o.search().at95() != null ? o.search().at95()
        : o.result().runs().get(0);
    assertThat(c.at("/systems/0/spaceAmplification").asDouble())
        .isEqualTo((double) reported.spaceBytesAtEnd() / o.result().liveDataBytes());
    assertThat(c.at("/systems/0/running/name").asText()).isEqualTo(reported.name());
  }

  @Test
  void eachSystemsHeadingSaysWhichOfHowManyAndTheTimeLeft() {
    long started = System.nanoTime() - 120_000_000_000L; // two minutes ago
    assertThat(CompareRunner.heading(1, 5, System.nanoTime())).isEqualTo("== [1 of 5] ");
    assertThat(CompareRunner.heading(3, 5, started))
        .matches("== \\[3 of 5; 2 min so far, about 3 min left\\] ");
  }
}
