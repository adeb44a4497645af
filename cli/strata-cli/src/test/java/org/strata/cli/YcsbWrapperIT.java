package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.ycsb.feed.FeedServer;

/**
 * {@code bin/ycsb} (YCSB's own {@code site.ycsb.Client} over the packaged jars) runs the shipped
 * workloads a-f against the embedded binding and against the feed binding with zero failed
 * operations, and exits non-zero when YCSB cannot run. An integration test: it needs the jars
 * that {@code package} builds.
 */
class YcsbWrapperIT {
  private static final List<String> WORKLOADS = List.of("a", "b", "c", "d", "e", "f");

  @TempDir Path tmp;

  private static Path ycsb() {
    return Path.of(System.getProperty("user.dir")).resolve("..").resolve("..").resolve("bin")
        .resolve("ycsb").normalize();
  }

  private record Run(int code, String output) {}

  private static Run run(List<String> args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ycsb().toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("STRATA_JAVA_OPTS", "-Xmx512m");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
    return new Run(p.exitValue(), out);
  }

  private static void loadAndRun(String workload, List<String> binding) throws Exception {
    List<String> props = new ArrayList<>(binding);
    props.addAll(List.of("-P", "workload" + workload, "-p", "recordcount=500"));
    List<String> load = new ArrayList<>(List.of("load"));
    load.addAll(props);
    Run l = run(load);
    assertThat(l.code()).as("load %s:%n%s", workload, l.output()).isZero();
    assertThat(l.output()).contains("[INSERT], Return=OK, 500");
    List<String> runArgs = new ArrayList<>(List.of("run"));
    runArgs.addAll(props);
    runArgs.addAll(List.of("-p", "operationcount=1000"));
    Run r = run(runArgs);
    assertThat(r.code()).as("run %s:%n%s", workload, r.output()).isZero();
    assertThat(r.output()).contains("[OVERALL], Throughput").doesNotContain("Return=ERROR")
        .doesNotContain("Return=NOT_FOUND");
  }

  @Test
  void workloadsAThroughFRunOnTheEmbeddedBindingWithoutFailures() throws Exception {
    for (String w : WORKLOADS) {
      loadAndRun(w, List.of("-db", "embedded", "-p", "strata.dir=" + tmp.resolve("emb-" + w)));
    }
  }

  @Test
  void workloadsAThroughFRunOnTheFeedBindingWithoutFailures() throws Exception {
    for (String w : WORKLOADS) {
      try (Dataset ds = Dataset.open(tmp.resolve("feed-" + w), DatasetConfig.of(
          StoreConfig.defaults().withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2))));
          FeedServer server = FeedServer.start(ds, "127.0.0.1", 0)) {
        loadAndRun(w, List.of("-db", "feed", "-p", "strata.feed.port=" + server.port()));
        assertThat(server.stats().rejected()).isZero();
        assertThat(server.stats().failed()).isZero();
      }
    }
  }

  @Test
  void theWrapperFailsWhenYcsbCannotRunOrUsageIsWrong() throws Exception {
    Run noDir = run(List.of("run", "-P", "workloada", "-p", "operationcount=10"));
    assertThat(noDir.code()).as(noDir.output()).isEqualTo(1);
    assertThat(noDir.output()).contains("strata.dir");
    Run noServer = run(List.of("run", "-db", "feed", "-P", "workloada", "-p",
        "strata.feed.port=1", "-p", "operationcount=10"));
    assertThat(noServer.code()).as(noServer.output()).isEqualTo(1);
    Run usage = run(List.of("frobnicate"));
    assertThat(usage.code()).isEqualTo(2);
    Run missing = run(List.of("run", "-P", "workloadz"));
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.output()).contains("workloadz");
    assertThat(Files.isExecutable(ycsb())).isTrue();
  }
}
