package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code strata compare} and {@code two-phase --find-sustainable} refuse bad usage, exit 2. */
class CompareCommandTest {
  @TempDir Path tmp;

  private Path config(String systems) throws Exception {
    Path f = tmp.resolve("c.json");
    Files.writeString(f, """
        {"dataset": {"memory-component": {"size": "64KB", "count": 2}},
         "load": {"records": 100}, "systems": %s}
        """.formatted(systems));
    return f;
  }

  @Test
  void refusesBadFlagsAndConfigurationsBeforeRunningAnything() throws Exception {
    Path cfg = config("[{\"name\": \"rocksdb\"}]");
    Path out = tmp.resolve("out");
    CliTest.Result r = CliTest.run("compare", "--config", cfg.toString(), "--out",
        out.toString(), "--phases", "testing");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--phases: 'testing'").contains("load, all, lookup");
    r = CliTest.run("compare", "--config", cfg.toString(), "--out", out.toString(), "--phases",
        "lookup", "--find-sustainable");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--find-sustainable needs --phases all");
    Path badLookup = tmp.resolve("bad-lookup.json");
    Files.writeString(badLookup, Files.readString(cfg).replace("\"systems\"",
        "\"lookup\": {\"threads\": [1, 0]}, \"systems\""));
    r = CliTest.run("compare", "--config", badLookup.toString(), "--out", out.toString(),
        "--phases", "lookup");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("lookup.threads").contains("each 1 to 64");
    r = CliTest.run("compare", "--config", cfg.toString(), "--out", out.toString(),
        "--phase-seconds", "30");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--phase-seconds goes with --find-sustainable");
    r = CliTest.run("compare", "--config", config("[{\"name\": \"cassandra\"}]").toString(),
        "--out", out.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("systems[0].name").contains("cassandra")
        .contains("strata, rocksdb, hyracks");
    assertThat(out).doesNotExist();
    r = CliTest.run("two-phase", "--config", cfg.toString(), "--out", out.toString(),
        "--phase-seconds", "1");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--phase-seconds");
  }

  /** --system runs only the entries it names, and refuses a label the file does not have. */
  @Test
  void systemRunsOnlyTheNamedEntries() throws Exception {
    Path cfg = config("[{\"name\": \"rocksdb\", \"compaction\": \"leveled\"},"
        + " {\"name\": \"rocksdb\", \"compaction\": \"universal\"}]");
    Path out = tmp.resolve("out");
    CliTest.Result r = CliTest.run("compare", "--config", cfg.toString(), "--out",
        out.toString(), "--phases", "load", "--system", "rocksdb-tiered");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--system: 'rocksdb-tiered'")
        .contains("allowed: rocksdb-leveled, rocksdb-universal");
    assertThat(out).doesNotExist();
    r = CliTest.run("compare", "--config", cfg.toString(), "--out", out.toString(), "--phases",
        "load", "--system", "rocksdb-universal");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("rocksdb-universal: load").doesNotContain("rocksdb-leveled");
    assertThat(Files.readString(out.resolve("comparison.json"))).contains("rocksdb-universal")
        .doesNotContain("rocksdb-leveled");
  }

  /**
   * --set overrides reach the configuration and are checked as the same value in the file would
   * be: each override below is refused with the file's own message, which it could not be if the
   * override were not applied (the file alone is valid).
   */
  @Test
  void setOverridesAreAppliedAndCheckedLikeTheFile() throws Exception {
    Path cfg = config("[{\"name\": \"strata\"}, {\"name\": \"rocksdb\"}]");
    Path out = tmp.resolve("out");
    for (String command : java.util.List.of("two-phase", "compare")) {
      CliTest.Result r = CliTest.run(command, "--config", cfg.toString(), "--out",
          out.toString(), "--set", "testing.duration-seconds=10", "--set",
          "testing.warmup-seconds=10");
      assertThat(r.code()).as(command + ": " + r.err()).isEqualTo(2);
      assertThat(r.err()).contains("testing.warmup-seconds");
      r = CliTest.run(command, "--config", cfg.toString(), "--out", out.toString(), "--set",
          "dataset.memory-component.sise=1MB");
      assertThat(r.code()).as(command).isEqualTo(2);
      assertThat(r.err()).contains("unknown configuration key").contains("sise");
      r = CliTest.run(command, "--config", cfg.toString(), "--out", out.toString(), "--set",
          "dataset.memory-component.count=0");
      assertThat(r.code()).as(command).isEqualTo(2);
      assertThat(r.err()).contains("memory-component.count");
      r = CliTest.run(command, "--config", cfg.toString(), "--out", out.toString(), "--set",
          "load");
      assertThat(r.code()).as(command).isEqualTo(2);
      assertThat(r.err()).contains("key.path=value");
    }
    CliTest.Result r = CliTest.run("compare", "--config", cfg.toString(), "--out",
        out.toString(), "--set", "systems.1.name=cassandra");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("systems[1].name").contains("cassandra");
    assertThat(out).doesNotExist();
  }
}
