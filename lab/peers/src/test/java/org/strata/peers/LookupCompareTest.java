package org.strata.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.config.NamedPlugin;
import org.strata.twophase.CacheCounters;
import org.strata.twophase.GeneratedRecord;
import org.strata.twophase.PhaseSetup;
import org.strata.twophase.SystemUnderTest;
import org.strata.twophase.TargetStats;
import org.strata.twophase.TwoPhaseRunner;
import org.strata.twophase.TwoPhaseTarget;

/**
 * The point-lookup comparison ({@code --phases lookup}) end to end on a tiny run, Strata against
 * RocksDB leveled: every field of comparison.json and every column of comparison.md; and the
 * value check, which fails the run when a get returns a corrupted value.
 */
class LookupCompareTest {
  @TempDir Path tmp;

  private static final String CONFIG = CompareRunnerTest.config("""
      [{"name": "strata", "label": "strata-store", "api": "store"},
       {"name": "rocksdb", "compaction": "leveled"}]""", 2000).replace("\"systems\"",
      "\"lookup\": {\"duration-seconds\": 1, \"warmup-seconds\": 0, \"threads\": [1, 2]},"
          + " \"systems\"").replace("\"8MB\"", "\"128KB\"");

  @Test
  void everySystemHasGetsLatencyAndHitRatioPerThreadCount() throws Exception {
    CompareConfig cfg = CompareConfigJson.parse(CONFIG, "test", "tiny");
    assertThat(cfg.lookup().threads()).containsExactly(1, 2);
    Path out = tmp.resolve("out");
    List<CompareRunner.Outcome> outcomes = new CompareRunner(cfg, out, null, false)
        .run(CompareRunner.Mode.LOOKUP, 0);
    assertThat(outcomes).hasSize(2);

    JsonNode j = new ObjectMapper().readTree(out.resolve("comparison.json").toFile());
    assertThat(j.at("/mode").asText()).isEqualTo("lookup");
    assertThat(j.at("/lookup/threads").size()).isEqualTo(2);
    assertThat(j.at("/quote").asText()).contains("gets/s");
    for (int i = 0; i < 2; i++) {
      JsonNode s = j.at("/systems/" + i);
      String label = s.at("/label").asText();
      assertThat(s.at("/load/verifiedKeys").asLong()).as(label).isEqualTo(2000);
      assertThat(s.at("/lookups/cacheBytes").asLong()).as(label).isEqualTo(128 << 10);
      assertThat(s.at("/lookups/dataBytes").asLong()).as(label).isPositive();
      assertThat(s.at("/lookups/dataToCache").asDouble()).as(label).isGreaterThan(1);
      assertThat(s.at("/lookups/runs").size()).as(label).isEqualTo(2);
      for (int r = 0; r < 2; r++) {
        JsonNode run = s.at("/lookups/runs/" + r);
        assertThat(run.at("/threads").asInt()).isEqualTo(r + 1);
        assertThat(run.at("/gets").asLong()).as(label).isPositive();
        assertThat(run.at("/getsPerSecond").asDouble()).as(label).isPositive();
        assertThat(run.at("/latency/max").asDouble()).as(label)
            .isGreaterThanOrEqualTo(run.at("/latency/p99").asDouble())
            .isGreaterThanOrEqualTo(run.at("/latency/p50").asDouble());
        // Both report their cache: the data is larger than it, so there are hits and misses.
        assertThat(run.at("/cacheHitRatio").asDouble()).as(label).isBetween(0.0, 1.0);
        assertThat(run.at("/latency/count").asLong()).isEqualTo(run.at("/gets").asLong());
      }
      assertThat(s.at("/load/gc/pauses").isIntegralNumber()).isTrue();
    }
    assertThat(j.at("/systems/1/description").asText()).contains("LRU block cache 128KB")
        .contains("Bloom filter 9.59 bits/key");
    assertThat(j.at("/systems/1/ratioToFirst/gets~1s 2 threads").isNumber()).isTrue();

    String report = Files.readString(out.resolve("comparison.md"));
    // A summary of a few columns first, then every figure.
    assertThat(report.substring(report.indexOf("## Summary")).lines()
        .filter(l -> l.startsWith("| system |")).findFirst().orElseThrow())
        .isEqualTo("| system | gets/s 1 thread | p99 ms 1 thread |");
    String md = report.substring(report.indexOf("## All figures"));
    String header = md.lines().filter(l -> l.startsWith("| system |")).findFirst().orElseThrow();
    for (String column : List.of("data/cache", "gets/s 1 thread", "p50 ms 1 thread",
        "p99 ms 1 thread", "max ms 1 thread", "hit ratio 1 thread", "gets/s 2 threads",
        "p99 ms 2 threads", "hit ratio 2 threads")) {
      assertThat(header).contains("| " + column + " |");
    }
    String row = md.lines().filter(l -> l.startsWith("| rocksdb-leveled |")).findFirst()
        .orElseThrow();
    assertThat(row.split("\\|", -1)).hasSize(header.split("\\|", -1).length);
    assertThat(row).contains("x)").doesNotContain("| - |");
    assertThat(Files.readString(out.resolve("strata-store").resolve("report.md")))
        .contains("## Point lookups").contains("| 2 | ");
    assertThat(out.resolve("rocksdb-leveled").resolve("data")).doesNotExist();
  }

  /** A target whose lookup phase (its second open) returns one corrupted value. */
  private record Corrupting(TwoPhaseTarget inner, AtomicInteger opens) implements TwoPhaseTarget {
    @Override
    public String system() {
      return inner.system();
    }

    @Override
    public String label() {
      return inner.label();
    }

    @Override
    public String description() {
      return inner.description();
    }

    @Override
    public List<NamedPlugin> runningSchedulers(List<NamedPlugin> configured) {
      return inner.runningSchedulers(configured);
    }

    @Override
    public NamedPlugin testingScheduler(NamedPlugin configured) {
      return inner.testingScheduler(configured);
    }

    @Override
    public SystemUnderTest open(Path dir, PhaseSetup setup) throws Exception {
      SystemUnderTest s = inner.open(dir, setup);
      boolean corrupt = opens.incrementAndGet() == 2;
      AtomicInteger reads = new AtomicInteger();
      return new SystemUnderTest() {
        @Override
        public void write(GeneratedRecord record) throws Exception {
          s.write(record);
        }

        @Override
        public byte[] read(String key) throws Exception {
          byte[] v = s.read(key);
          if (corrupt && v != null && reads.incrementAndGet() == 1) {
            v = v.clone();
            v[v.length / 2] ^= 1;
          }
          return v;
        }

        @Override
        public void flush() throws Exception {
          s.flush();
        }

        @Override
        public void awaitMerges() throws Exception {
          s.awaitMerges();
        }

        @Override
        public TargetStats stats() {
          return s.stats();
        }

        @Override
        public CacheCounters cacheCounters() {
          return s.cacheCounters();
        }

        @Override
        public void close() throws Exception {
          s.close();
        }
      };
    }
  }

  @Test
  void aCorruptedValueFailsTheRunNamingTheKey() throws Exception {
    CompareConfig cfg = CompareConfigJson.parse(CONFIG, "test", "tiny");
    for (SystemSpec spec : cfg.systems()) {
      SystemSpec.Run run = spec.targets(cfg.twoPhase(), false).get(0);
      AtomicInteger opens = new AtomicInteger();
      TwoPhaseRunner runner = new TwoPhaseRunner(run.config(),
          new Corrupting(run.target(), opens), tmp.resolve(spec.label()), null, false, false,
          true);
      assertThatThrownBy(() -> runner.runLookups(cfg.lookup())).as(spec.label())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("returned a different value").hasMessageContaining("user");
      assertThat(opens.get()).as(spec.label()).isEqualTo(2);
    }
  }

  @Test
  void theExampleConfigurationIsValid() {
    CompareConfig cfg =
        CompareConfigJson.read(Path.of("..", "..", "examples", "compare-lookup.json"));
    assertThat(cfg.lookup().threads()).containsExactly(1, 2);
    assertThat(cfg.twoPhase().dataset().store().pageCache().size().bytes()).isEqualTo(16 << 20);
    assertThat(cfg.systems().stream().map(SystemSpec::label).toList()).containsExactly(
        "strata-tiering-store", "strata-partitioned-leveling-store", "strata-lazy-32-store",
        "rocksdb-leveled", "rocksdb-universal");
    assertThatThrownBy(() -> CompareConfigJson.parse(CONFIG.replace("\"warmup-seconds\": 0",
        "\"warmup-secs\": 0"), "t", "x")).hasMessageContaining("lookup.warmup-secs")
        .hasMessageContaining("allowed keys");
  }
}
