package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.InvalidConfigurationException;

/** A small two-phase run end to end: every output exists, is well-formed and consistent. */
class TwoPhaseRunnerTest {
  @TempDir Path tmp;

  private static final String CONFIG = """
      {"name": "tiny",
       "dataset": {"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
                   "memory-component": {"size": "64KB", "count": 2},
                   "io": {"write-rate-limit": "4MB", "force-bytes": "256KB"},
                   "page-cache": {"size": "8MB"},
                   "secondary-indexes": [{"name": "by_field1", "field": "field1"}]},
       "load": {"records": 3000},
       "records": {"fields": 6, "field-length": 50},
       "testing": {"duration-seconds": 4, "warmup-seconds": 1},
       "running": {"duration-seconds": 3, "drain-seconds": 2,
                   "merge-schedulers": [{"name": "fair"}, {"name": "greedy"}],
                   "utilizations": [0.5],
                   "queries": {"threads": 1, "kind": "short-scan"}},
       "chart-window-seconds": 1}
      """;

  @Test
  void producesTheSummaryTimeSeriesLogsChartsAndReport() throws Exception {
    TwoPhaseConfig cfg = TwoPhaseConfigJson.parse(CONFIG, "test", "x");
    Path out = tmp.resolve("out");
    TwoPhaseResult r = new TwoPhaseRunner(cfg, out, null, false, false).run();
    ReportWriter.write(out, r);

    JsonNode s = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    double w = s.at("/testing/maxThroughput").asDouble();
    assertThat(w).isPositive();
    assertThat(s.at("/running/arrivalRate").asDouble()).isCloseTo(0.5 * w,
        org.assertj.core.data.Percentage.withPercentage(1));
    for (String lat : List.of("writeLatency", "processingLatency")) {
      for (String p : List.of("p50", "p90", "p99", "p99.9", "max")) {
        assertThat(s.at("/running/" + lat).has(p)).as(lat + "." + p).isTrue();
      }
    }
    assertThat(s.at("/running/writeLatency/p99").asDouble())
        .isGreaterThanOrEqualTo(s.at("/running/processingLatency/p50").asDouble());
    assertThat(s.at("/running/stalls").has("count")).isTrue();
    assertThat(s.at("/running/stalls").has("seconds")).isTrue();
    assertThat(s.at("/running/maxDiskComponents").asLong()).isPositive();
    assertThat(s.has("writeAmplification")).isTrue();
    assertThat(s.at("/runs").size()).isEqualTo(2);
    assertThat(s.at("/runs/1/scheduler").asText()).isEqualTo("greedy");
    assertThat(s.at("/running/queries/count").asLong()).isPositive();
    for (String phase : List.of("/load", "/testing", "/running", "/runs/1")) {
      assertThat(s.at(phase + "/gc/pauses").isIntegralNumber()).as(phase).isTrue();
      assertThat(s.at(phase + "/gc/peakHeapBytes").asLong()).as(phase).isPositive();
      assertThat(s.at(phase + "/gc/maxMillis").asDouble()).as(phase)
          .isGreaterThanOrEqualTo(s.at(phase + "/gc/p50Millis").asDouble());
    }
    assertThat(s.at("/machine/maxHeapBytes").asLong()).isPositive();
    // Each phase's index histories are kept for strata lsm, each ending with the index's close.
    for (String phase : List.of("testing", s.at("/runs/0/name").asText(),
        s.at("/runs/1/name").asText())) {
      Path kept = out.resolve("history").resolve(phase);
      try (java.util.stream.Stream<Path> files = Files.walk(kept)) {
        List<Path> histories = files.filter(f -> f.getFileName().toString().equals("HISTORY"))
            .toList();
        assertThat(histories).as(phase).isNotEmpty();
        for (Path h : histories) {
          List<String> lines = org.strata.lsm.metrics.HistoryFile.read(h.getParent(), new int[1]);
          assertThat(lines.get(lines.size() - 1)).as(h.toString())
              .contains("\"event\":\"close\"");
          assertThat(lines).as(h.toString()).anyMatch(l -> l.contains("\"event\":\"flush\""));
        }
      }
    }
    // Counted at completion, the testing phase's budget use is its bytes flushed and merged after
    // the warm-up (from timeseries.csv) per second over the 4MB limit.
    long written = Files.readAllLines(out.resolve("timeseries.csv")).stream()
        .filter(l -> l.startsWith("testing,")).map(l -> l.split(","))
        .filter(f -> Integer.parseInt(f[1]) > 1 && Integer.parseInt(f[1]) <= 4)
        .mapToLong(f -> Long.parseLong(f[8]) + Long.parseLong(f[9])).sum();
    assertThat(written).isPositive();
    assertThat(s.at("/testing/ioBudgetUse/useCountedAtCompletion").asDouble())
        .isCloseTo(written / 3.0 / (4 << 20), org.assertj.core.data.Offset.offset(1e-9));
    // Counted as written, it is the bytes the throttle admitted to flushes and merges meanwhile.
    assertThat(s.at("/testing/ioBudgetUse/countedAs").asText()).isEqualTo("written");
    long admitted = s.at("/testing/ioBudgetUse/budgetCounters/flushBytesAdmitted").asLong()
        + s.at("/testing/ioBudgetUse/budgetCounters/mergeBytesAdmitted").asLong();
    assertThat(admitted).isPositive();
    assertThat(s.at("/testing/ioBudgetUse/use").asDouble())
        .isCloseTo(admitted / 3.0 / (4 << 20), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(s.at("/running/ioBudgetUse/limitBytesPerSecond").asLong()).isEqualTo(4 << 20);
    assertThat(s.at("/machine/garbageCollectors").size()).isPositive();
    assertThat(s.at("/config/dataset/secondary-indexes/0/field").asText()).isEqualTo("field1");

    List<String> csv = Files.readAllLines(out.resolve("timeseries.csv"));
    assertThat(csv.get(0)).isEqualTo(PhaseSample.CSV_HEADER);
    assertThat(csv).anyMatch(l -> l.startsWith("testing,1,"))
        .anyMatch(l -> l.startsWith("running-greedy-50pct,3,"));
    long arrivals = csv.stream().filter(l -> l.startsWith("running-fair-50pct,"))
        .mapToLong(l -> Long.parseLong(l.split(",")[2])).sum();
    assertThat(arrivals).isEqualTo(s.at("/runs/0/arrived").asLong());
    // The space used at every second; its mean over the first running phase, over the live
    // data, is the summary's mean space amplification.
    List<Long> space = csv.stream().filter(l -> l.startsWith("running-fair-50pct,"))
        .map(l -> Long.parseLong(l.split(",", -1)[15])).toList(); // space_bytes
    assertThat(space).isNotEmpty().allSatisfy(b -> assertThat(b).isPositive());
    double meanSpace = space.stream().mapToLong(Long::longValue).average().orElseThrow();
    assertThat(s.at("/runs/0/meanSpaceBytes").asDouble())
        .isCloseTo(meanSpace, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(s.at("/meanSpaceAmplification").asDouble()).isCloseTo(
        meanSpace / s.at("/load/liveDataBytes").asLong(),
        org.assertj.core.data.Offset.offset(1e-9));

    HistogramLogReader log = new HistogramLogReader(out.resolve(
        "running-fair-50pct-write.hlog").toFile());
    long logged = 0;
    org.HdrHistogram.EncodableHistogram h;
    while ((h = log.nextIntervalHistogram()) != null) {
      logged += ((org.HdrHistogram.Histogram) h).getTotalCount();
    }
    assertThat(logged).isEqualTo(s.at("/runs/0/writeLatency/count").asLong());
    // The generator's lateness: one value per arrival, its maximum in the summary.
    HistogramLogReader lagLog = new HistogramLogReader(out.resolve(
        "running-fair-50pct-arrival-lag.hlog").toFile());
    long lags = 0;
    long lagMax = 0;
    while ((h = lagLog.nextIntervalHistogram()) != null) {
      lags += ((org.HdrHistogram.Histogram) h).getTotalCount();
      lagMax = Math.max(lagMax, ((org.HdrHistogram.Histogram) h).getMaxValue());
    }
    assertThat(lags).isEqualTo(s.at("/runs/0/arrived").asLong());
    assertThat(s.at("/runs/0/arrivalLagMaxMillis").asDouble())
        .isCloseTo(lagMax / 1000.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(s.at("/testing/arrivalLagMaxMillis").isMissingNode()).isTrue();

    for (String png : List.of("throughput.png", "disk-components.png", "latency.png")) {
      BufferedImage img = ImageIO.read(out.resolve(png).toFile());
      assertThat(img).as(png).isNotNull();
      assertThat(img.getWidth()).isEqualTo(1000);
    }
    // One colour per phase on every chart; the warm-up band, W and the arrival lines drawn.
    java.util.Map<String, org.knowm.xchart.XYChart> charts = TwoPhaseCharts.charts(r);
    java.util.Map<String, org.knowm.xchart.XYSeries> tput =
        charts.get(TwoPhaseCharts.THROUGHPUT).getSeriesMap();
    assertThat(tput).containsKeys("testing", "running-fair-50pct", "running-greedy-50pct",
        "testing warm-up (excluded from W)");
    assertThat(tput.keySet()).anyMatch(k -> k.startsWith("W = "))
        .anyMatch(k -> k.startsWith("running-fair-50pct arrivals ") && k.endsWith(" = 0.50 W"));
    for (String phase : List.of("testing", "running-fair-50pct", "running-greedy-50pct")) {
      java.awt.Color c = tput.get(phase).getLineColor();
      assertThat(charts.get(TwoPhaseCharts.COMPONENTS).getSeriesMap().get(phase).getLineColor())
          .as(phase).isEqualTo(c);
      if (!phase.equals("testing")) {
        assertThat(charts.get(TwoPhaseCharts.LATENCY).getSeriesMap().get(phase + " write")
            .getLineColor()).as(phase).isEqualTo(c);
        assertThat(charts.get(TwoPhaseCharts.LATENCY).getSeriesMap().get(phase + " processing")
            .getLineColor()).as(phase).isEqualTo(c);
      }
    }
    assertThat(tput.get("running-fair-50pct").getLineColor())
        .isNotEqualTo(tput.get("running-greedy-50pct").getLineColor());
    // Every series visible: a phase's line is drawn after (over) its arrival line, which is
    // dotted and lighter; the warm-up band's swatch shows; levels read from zero.
    List<String> order = new java.util.ArrayList<>(tput.keySet());
    for (String phase : List.of("running-fair-50pct", "running-greedy-50pct")) {
      String rateLine = order.stream().filter(k -> k.startsWith(phase + " arrivals "))
          .findFirst().orElseThrow();
      assertThat(order.indexOf(phase)).as(phase).isGreaterThan(order.indexOf(rateLine));
      assertThat(tput.get(rateLine).getLineColor().getAlpha()).isLessThan(255);
      assertThat(tput.get(rateLine).getLineStyle())
          .isNotEqualTo(tput.get(phase).getLineStyle());
    }
    assertThat(tput.get("testing warm-up (excluded from W)").getFillColor().getAlpha())
        .isGreaterThanOrEqualTo(50);
    for (String chart : List.of(TwoPhaseCharts.THROUGHPUT, TwoPhaseCharts.COMPONENTS,
        TwoPhaseCharts.PENDING)) {
      assertThat(charts.get(chart).getStyler().getYAxisMin()).as(chart).isEqualTo(0.0);
    }
    String report = Files.readString(out.resolve("report.md"));
    assertThat(report).contains("![write throughput](throughput.png)")
        .contains("maximum write throughput").contains("running-greedy-50pct");
    assertThat(report).contains("## Collector pauses and heap").contains("| load | ")
        .contains("| testing | ").contains("| running-greedy-50pct | ");
    assertThat(out.resolve("data")).doesNotExist();
  }

  @Test
  void runsSecondaryIndexQueriesAlongsideTheWrites() throws Exception {
    TwoPhaseConfig cfg = TwoPhaseConfigJson.parse(CONFIG.replace("\"kind\": \"short-scan\"",
        "\"kind\": \"secondary\", \"selectivity\": 10"), "test", "x");
    assertThat(cfg.running().queries().index()).isEqualTo("by_field1");
    Path out = tmp.resolve("secondary");
    TwoPhaseResult r = new TwoPhaseRunner(cfg, out, null, false, false).run();
    ReportWriter.write(out, r);
    assertThat(r.runs()).hasSize(2).allSatisfy(p -> {
      assertThat(p.queries().kind()).isEqualTo("secondary");
      assertThat(p.queries().count()).isPositive();
    });
    assertThat(Files.readString(out.resolve("report.md")))
        .contains("1 thread(s) of secondary (by_field1, ranges of 10 values)");
  }

  @Test
  void badConfigurationsFailNamingTheKey() {
    assertThatThrownBy(() -> TwoPhaseConfigJson.parse("{}", "t", "x"))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("'dataset'");
    assertThatThrownBy(() -> TwoPhaseConfigJson.parse(
        "{\"dataset\": {}, \"running\": {\"rate\": 100, \"utilizations\": [0.9]}}", "t", "x"))
        .hasMessageContaining("not several");
    assertThatThrownBy(() -> TwoPhaseConfigJson.parse(
        "{\"dataset\": {}, \"testing\": {\"duration-seconds\": 10, \"warmup-seconds\": 10}}",
        "t", "x")).hasMessageContaining("testing.warmup-seconds");
    assertThatThrownBy(() -> TwoPhaseConfigJson.parse(
        "{\"dataset\": {}, \"running\": {\"bursts\": \"2000\"}}", "t", "x"))
        .hasMessageContaining("running.bursts");
    assertThatThrownBy(() -> TwoPhaseConfigJson.parse(
        "{\"dataset\": {}, \"records\": {\"distribution\": \"normal\"}}", "t", "x"))
        .hasMessageContaining("records.distribution: 'normal'");
    assertThatThrownBy(() -> TwoPhaseConfigJson.parse("{\"dataset\": {}, \"runing\": {}}", "t",
        "x")).hasMessageContaining("unknown configuration key 'runing'");
    assertThatThrownBy(() -> TwoPhaseConfigJson.parse("""
        {"dataset": {}, "testing": {"duration-seconds": 60, "duration-seconds": 5}}
        """, "t", "x")).isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("'duration-seconds'").hasMessageContaining("twice");
  }
}
