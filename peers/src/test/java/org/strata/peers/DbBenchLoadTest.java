package org.strata.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.ycsb.twophase.TwoPhaseResult;

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

  private static RocksDbNativeSystem only(CompareConfig c) {
    return (RocksDbNativeSystem) c.systems().get(0);
  }

  @Test
  void oneWriterFillsEveryKeyOnceAtTheComparisonsShape() {
    CompareConfig c = config("[{\"name\": \"rocksdb-native\", \"compaction\": \"universal\"}]",
        1000, 1);
    List<String> cmd = only(c).load(c.twoPhase()).command("db_bench", Path.of("d"));
    assertThat(cmd).contains("--benchmarks=filluniquerandom,waitforcompaction", "--num=1000",
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
    assertThat(cmd).contains("--benchmarks=fillrandom,waitforcompaction", "--num=1001",
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
  void refusesAMissingExecutableAndAnyComparisonButALoad(@TempDir Path out) {
    assertThatThrownBy(() -> DbBenchLoad.resolve("no-such-db-bench-here"))
        .hasMessageContaining("'no-such-db-bench-here' is not an executable on the PATH")
        .hasMessageContaining("apt-get install rocksdb-tools");
    CompareConfig c = config("[{\"name\": \"rocksdb-native\"}]", 1000, 1);
    assertThatThrownBy(() -> new CompareRunner(c, out, null, false)
        .run(CompareRunner.Mode.ALL, 0))
        .hasMessageContaining("'rocksdb-native-leveled-comparison' is a rocksdb-native entry")
        .hasMessageContaining("--phases load");
    assertThatThrownBy(() -> config("[{\"name\": \"rocksdb-native\", \"shape\": \"tuned\"}]",
        1000, 1)).hasMessageContaining("'tuned'").hasMessageContaining("comparison, defaults");
  }

  @Test
  void dbBenchLoadsInAProcessOfItsOwnAndIsAccounted(@TempDir Path out) throws Exception {
    boolean installed;
    try {
      DbBenchLoad.resolve("db_bench");
      installed = true;
    } catch (IllegalArgumentException e) {
      installed = false;
    }
    assumeTrue(installed, "db_bench is not installed (Debian: apt-get install rocksdb-tools);"
        + " the rocksdb-native peer's real load is not tested here");
    CompareConfig c = config("[{\"name\": \"rocksdb-native\", \"compaction\": \"universal\"}]",
        20_000, 1);
    TwoPhaseResult r = only(c).load(c.twoPhase()).run(out, null);
    assertThat(r.system()).isEqualTo("rocksdb-native");
    assertThat(r.fillSeconds()).isPositive();
    assertThat(r.loadSeconds()).isGreaterThanOrEqualTo(r.fillSeconds());
    assertThat(r.loadProcess().peakRssBytes()).isPositive();
    assertThat(r.loadProcess().userSeconds() + r.loadProcess().systemSeconds()).isPositive();
    assertThat(r.loadedDiskComponents()).isPositive();
    // 20,000 records of 1,016 bytes, uncompressed: the files hold at least the values.
    assertThat(r.loadedSpaceBytes()).isGreaterThan(20_000L * 1000);
    assertThat(r.description()).contains("20,000 writes");
    assertThat(Files.readString(out.resolve("db_bench.log"))).contains("filluniquerandom");
  }
}
