package org.strata.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.twophase.TwoPhaseResult;

/**
 * The {@code rocksdb-native} peer: the db_bench command it builds for each shape and writer
 * count, the result line it reads, the refusals (no db_bench, a two-phase comparison), and a real
 * load by db_bench where it is installed (Debian's rocksdb-tools; skipped with a message where it
 * is not).
 */
class DbBenchLoadTest {
  private static CompareConfig config(String systems, long records, int writers) {
    return CompareConfigJson.parse("""
        {"dataset": {"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
                     "memory-component": {"size": "8MB", "count": 2}},
         "load": {"records": %d, "writers": %d},
         "systems": %s}
        """.formatted(records, writers, systems), "t", "x");
  }

  /** Skips the test, saying so, where db_bench is not installed. */
  private static void assumeDbBench(String what) {
    boolean installed;
    try {
      DbBenchLoad.resolve("db_bench");
      installed = true;
    } catch (IllegalArgumentException e) {
      installed = false;
    }
    assumeTrue(installed, "db_bench is not installed (Debian: apt-get install rocksdb-tools);"
        + " the rocksdb-native peer's real " + what + " is not tested here");
  }

  private static RocksDbNativeSystem only(CompareConfig c) {
    return (RocksDbNativeSystem) c.systems().get(0);
  }

  @Test
  void oneWriterFillsEveryKeyOnceAtTheComparisonsShape() {
    CompareConfig c = config("[{\"name\": \"rocksdb-native\", \"compaction\": \"universal\"}]",
        1000, 1);
    List<String> cmd = only(c).load(c.twoPhase()).command("db_bench", Path.of("d"));
    assertThat(cmd).contains("--benchmarks=filluniquerandom,flush,waitforcompaction", "--num=1000",
        "--threads=1", "--key_size=16", "--value_size=1000", "--compression_type=none",
        "--disable_wal=1", "--compaction_style=1", "--write_buffer_size=" + (8 << 20),
        "--max_write_buffer_number=2", "--block_size=4096");
    assertThat(cmd).noneMatch(a -> a.startsWith("--writes="));
    assertThat(only(c).label()).isEqualTo("rocksdb-native-universal-comparison");
  }

  @Test
  void twoWritersShareTheWritesOfARandomFillAndDefaultsLeaveTheShapeAlone() {
    CompareConfig c = config("[{\"name\": \"rocksdb-native\", \"shape\": \"defaults\"}]",
        1001, 2);
    List<String> cmd = only(c).load(c.twoPhase()).command("db_bench", Path.of("d"));
    assertThat(cmd).contains("--benchmarks=fillrandom,flush,waitforcompaction", "--num=1001",
        "--threads=2", "--writes=501", "--compaction_style=0");
    assertThat(cmd).noneMatch(a -> a.startsWith("--write_buffer_size")
        || a.startsWith("--bloom_bits") || a.startsWith("--max_bytes_for_level_base"));
  }

  @Test
  void readsDbBenchsResultLine() {
    DbBenchLoad.Fill f = DbBenchLoad.fill(List.of("DB path: [x]",
        "filluniquerandom :       2.223 micros/op 449482 ops/sec 0.222 seconds 100000"
            + " operations;  435.5 MB/s", "waitforcompaction(x): finished"));
    assertThat(f).isEqualTo(new DbBenchLoad.Fill("filluniquerandom", 2.223, 449482, 0.222,
        100000));
    assertThat(DbBenchLoad.fill(List.of("nothing here"))).isNull();
  }

  @Test
  void readsAReadrandomRunAndRefusesOneThatMissedAKey() {
    List<String> out = List.of("readrandom   :       2.213 micros/op 451809 ops/sec 1.000"
        + " seconds 451999 operations;  437.8 MB/s (451999 of 451999 found)",
        "Count: 451999 Average: 2.2130  StdDev: 23.96", "Min: 0  Median: 1.4479  Max: 36408",
        "Percentiles: P50: 1.45 P75: 2.23 P99: 3.40 P99.9: 18.23 P99.99: 98.44",
        "rocksdb.block.cache.miss COUNT : 100", "rocksdb.block.cache.hit COUNT : 300");
    org.strata.twophase.LookupResult.Run r = DbBenchLoad.reads(2, out);
    assertThat(r.threads()).isEqualTo(2);
    assertThat(r.gets()).isEqualTo(451999);
    assertThat(r.getsPerSecond()).isEqualTo(451999.0);
    assertThat(r.latency().p50()).isEqualTo(0.00145);
    assertThat(r.latency().p99()).isEqualTo(0.0034);
    assertThat(r.latency().max()).isEqualTo(36.408);
    assertThat(r.cacheHitRatio()).isEqualTo(0.75);
    assertThatThrownBy(() -> DbBenchLoad.reads(1, List.of("readrandom   :       2.213"
        + " micros/op 451809 ops/sec 1.000 seconds 451999 operations;  437.8 MB/s (451998 of"
        + " 451999 found)"))).hasMessageContaining("found 451998 of 451999");
    assertThat(DbBenchLoad.reads(1, List.of("nothing"))).isNull();
  }

  @Test
  void refusesAMissingExecutableAndAnyComparisonButALoad(@TempDir Path out) {
    assertThatThrownBy(() -> DbBenchLoad.resolve("no-such-db-bench-here"))
        .hasMessageContaining("'no-such-db-bench-here' is not an executable on the PATH")
        .hasMessageContaining("apt-get install rocksdb-tools");
    CompareConfig c = config("[{\"name\": \"rocksdb-native\"}]", 1000, 1);
    assertThatThrownBy(() -> new CompareRunner(c, out, null, false)
        .run(CompareRunner.Mode.ALL, 0))
        .hasMessageContaining("'rocksdb-native-leveled-comparison' is a rocksdb-native entry")
        .hasMessageContaining("--phases load or lookup");
    assertThatThrownBy(() -> config("[{\"name\": \"rocksdb-native\", \"shape\": \"tuned\"}]",
        1000, 1)).hasMessageContaining("'tuned'").hasMessageContaining("comparison, defaults");
  }

  @Test
  void dbBenchLoadsInAProcessOfItsOwnAndIsAccounted(@TempDir Path out) throws Exception {
    assumeDbBench("load");
    CompareConfig c = config("[{\"name\": \"rocksdb-native\", \"compaction\": \"universal\"}]",
        20_000, 1);
    TwoPhaseResult r = only(c).load(c.twoPhase()).run(out, null);
    assertThat(r.system()).isEqualTo("rocksdb-native");
    assertThat(r.fillSeconds()).isPositive();
    assertThat(r.loadSeconds()).isGreaterThanOrEqualTo(r.fillSeconds());
    // timed to its last flush or compaction by RocksDB's LOG, within the process's life
    assertThat(r.description()).contains("by RocksDB's LOG");
    assertThat(r.loadSeconds()).isLessThanOrEqualTo(r.loadProcess().wallSeconds());
    assertThat(r.loadProcess().peakRssBytes()).isPositive();
    assertThat(r.loadProcess().userSeconds() + r.loadProcess().systemSeconds()).isPositive();
    assertThat(r.loadedDiskComponents()).isPositive();
    // 20,000 records of 1,016 bytes, uncompressed: the files hold at least the values.
    assertThat(r.loadedSpaceBytes()).isGreaterThan(20_000L * 1000);
    assertThat(r.description()).contains("20,000 writes");
    assertThat(Files.readString(out.resolve("db_bench.log"))).contains("filluniquerandom");
  }

  @Test
  void dbBenchReadsEveryLoadedKeyItLooksUp(@TempDir Path out) throws Exception {
    assumeDbBench("lookups");
    // Two loading writers configured: the lookups' load still writes every key once.
    CompareConfig c = config("[{\"name\": \"rocksdb-native\"}]", 20_000, 2);
    TwoPhaseResult r = only(c).load(c.twoPhase()).lookups(out,
        new org.strata.twophase.LookupConfig(1, 0, List.of(1, 2)), null);
    assertThat(r.lookups().runs()).extracting(x -> x.threads()).containsExactly(1, 2);
    assertThat(r.lookups().runs()).allSatisfy(x -> {
      assertThat(x.gets()).isPositive();
      assertThat(x.latency().p99()).isPositive();
    });
    assertThat(Files.exists(out.resolve("data"))).isFalse();
    assertThat(Files.readString(out.resolve("db_bench.log"))).contains("readrandom");
  }
}
