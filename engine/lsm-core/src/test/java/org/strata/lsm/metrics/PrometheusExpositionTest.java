package org.strata.lsm.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetMetrics;
import org.strata.lsm.dataset.SecondaryIndexSpec;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.testing.TestStores;

/**
 * The exposition of a store after a deterministic workload: every sample equals the figure of
 * {@link LsmStore#stats()} or {@link LsmStore#runs()} it is named after, the text follows the
 * format's rules, and Prometheus' own Python parser reads it where that parser is installed.
 */
class PrometheusExpositionTest {
  private static final Pattern SAMPLE =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (\\S+)");

  /** Samples by {@code name{labels}}. */
  private static Map<String, Double> samples(String text) {
    Map<String, Double> m = new HashMap<>();
    Set<String> typed = new HashSet<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("# TYPE ")) {
        String[] p = line.split(" ");
        assertThat(typed.add(p[2])).as("one TYPE line per family: %s", p[2]).isTrue();
        assertThat(p[3]).isIn("counter", "gauge", "histogram");
        if (p[3].equals("counter")) {
          assertThat(p[2]).endsWith("_total");
        }
        continue;
      }
      if (line.startsWith("# HELP ")) {
        continue;
      }
      Matcher s = SAMPLE.matcher(line);
      assertThat(s.matches()).as("a sample line: %s", line).isTrue();
      assertThat(typed).as("family typed before its samples: %s", line)
          .contains(s.group(1).replaceAll("_(bucket|sum|count)$", ""));
      assertThat(m.put(s.group(1) + (s.group(2) == null ? "" : s.group(2)),
          Double.parseDouble(s.group(3)))).as("one sample per series: %s", line).isNull();
    }
    return m;
  }

  private static StoreConfig config() {
    return TestStores.smallConfig(3);
  }

  private static LsmStore loaded(Path dir) {
    LsmStore s = LsmStore.open(dir, config());
    byte[] v = new byte[200];
    for (int i = 0; i < 5_000; i++) {
      s.put(String.format("k%07d", i).getBytes(StandardCharsets.US_ASCII), v);
    }
    s.flush();
    s.awaitMerges();
    return s;
  }

  @Test
  void everySampleIsTheEnginesOwnFigure(@TempDir Path dir) {
    try (LsmStore s = loaded(dir.resolve("db"))) {
      String text = PrometheusExposition.of("db", s.stats(), s.runs());
      StoreStats st = s.stats();
      Map<String, Double> m = samples(text);
      String l = "{store=\"db\"}";
      assertThat(m.get("strata_disk_components" + l)).isEqualTo(st.diskComponents());
      assertThat(m.get("strata_flush_bytes_total" + l)).isEqualTo(st.bytesFlushed());
      assertThat(m.get("strata_merge_bytes_total" + l)).isEqualTo(st.bytesMerged());
      assertThat(m.get("strata_flushes_total" + l)).isEqualTo(st.flushes()).isPositive();
      assertThat(m.get("strata_merges_total" + l)).isEqualTo(st.merges());
      assertThat(m.get("strata_user_bytes_total" + l)).isEqualTo(st.userBytes());
      assertThat(m.get("strata_disk_bytes" + l)).isEqualTo(st.diskBytes());
      assertThat(m.get("strata_write_amplification" + l))
          .isEqualTo(st.writeAmplification());
      assertThat(m.get("strata_stalled" + l)).isZero();
      for (StallCause c : StallCause.values()) {
        String lc = "{store=\"db\",cause=\"" + c.jsonName() + "\"}";
        assertThat(m.get("strata_stalls_total" + lc))
            .isEqualTo(st.stalls().get(c).count());
      }
      long components = 0;
      for (RunInfo r : s.runs()) {
        components += r.components().size();
      }
      double perLevel = m.entrySet().stream()
          .filter(e -> e.getKey().startsWith("strata_level_components{"))
          .mapToDouble(Map.Entry::getValue).sum();
      assertThat(perLevel).isEqualTo(components).isEqualTo(st.diskComponents());
      // one open: the histograms count every flush and merge the counters count
      assertThat(m.get("strata_flush_duration_seconds_count" + l)).isEqualTo(st.flushes());
      assertThat(m.get("strata_flush_duration_seconds_bucket{store=\"db\",le=\"+Inf\"}"))
          .isEqualTo(st.flushes());
      assertThat(m.get("strata_merge_duration_seconds_count" + l)).isEqualTo(st.merges());
      double previous = 0;
      for (double le : org.strata.lsm.DurationHistogram.BOUNDS) {
        double b = m.get("strata_flush_duration_seconds_bucket{store=\"db\",le=\""
            + (le == Math.rint(le) ? Long.toString((long) le) : Double.toString(le)) + "\"}");
        assertThat(b).as("cumulative buckets").isGreaterThanOrEqualTo(previous);
        previous = b;
      }
    }
  }

  @Test
  void aDatasetsTreesAreLabelledByPartitionAndIndex(@TempDir Path dir) {
    DatasetConfig cfg = new DatasetConfig(config(),
        List.of(new SecondaryIndexSpec("by_city", "city")), null, 2);
    try (Dataset ds = Dataset.open(dir.resolve("people"), cfg)) {
      for (int i = 0; i < 200; i++) {
        ds.upsert("u" + i, Map.of("city", "c" + (i % 7)));
      }
      ds.flush();
      Map<String, Double> m = samples(DatasetMetrics.of(ds));
      for (int p = 0; p < 2; p++) {
        for (String index : ds.indexNames()) {
          String l = "{dataset=\"people\",partition=\"" + p + "\",index=\"" + index + "\"}";
          assertThat(m.get("strata_flushes_total" + l))
              .isEqualTo(ds.tree(p, index).stats().flushes());
        }
      }
      assertThat(m).containsKey("strata_io_flush_bytes_admitted_total{dataset=\"people\"}");
    }
  }

  @Test
  void labelValuesAreEscaped(@TempDir Path dir) {
    try (LsmStore s = LsmStore.open(dir.resolve("db"), config())) {
      String text = PrometheusExposition.of("a\"b\\c\nd", s.stats(), s.runs());
      assertThat(text).contains("{store=\"a\\\"b\\\\c\\nd\"}");
      samples(text);
    }
  }

  /** Prometheus' reference parser (prometheus_client, Python) reads every family and sample. */
  @Test
  void prometheusOwnParserReadsIt(@TempDir Path dir) throws Exception {
    Assumptions.assumeTrue(pythonParser(),
        "skipped: python3 with the prometheus_client package is not installed"
            + " (pip install prometheus_client)");
    try (LsmStore s = loaded(dir.resolve("db"))) {
      String text = PrometheusExposition.of("db", s.stats(), s.runs());
      Path file = dir.resolve("metrics.txt");
      Files.writeString(file, text);
      Map<String, Double> ours = samples(text);
      Process p = new ProcessBuilder("python3", "-c", String.join("\n",
          "import sys",
          "from prometheus_client.parser import text_string_to_metric_families",
          "n = 0",
          "for f in text_string_to_metric_families(open(sys.argv[1]).read()):",
          "    for s in f.samples:",
          "        n += 1",
          "print(n)"), file.toString()).redirectErrorStream(true).start();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      assertThat(p.exitValue()).as(out).isZero();
      assertThat(Integer.parseInt(out)).isEqualTo(ours.size());
    }
  }

  private static boolean pythonParser() {
    try {
      Process p = new ProcessBuilder("python3", "-c", "import prometheus_client.parser")
          .redirectErrorStream(true).start();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
