package org.strata.asterixdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code strata asterixdb start} in a process of its own, stopped as a service manager stops it:
 * SIGTERM stops the cluster cleanly (its "stopped" line) and the process exits 0, not 143, with
 * nothing on stderr.
 */
class StartCommandIT {
  @TempDir Path tmp;
  private Process process;

  @AfterEach
  void stop() {
    if (process != null && process.isAlive()) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }

  @Test
  void sigtermStopsTheClusterAndExitsZero() throws Exception {
    StringBuilder ini = new StringBuilder();
    for (Map.Entry<String, Map<String, String>> s : ClusterConfigFile.freePorts(1).entrySet()) {
      ini.append('[').append(s.getKey()).append("]\n");
      s.getValue().forEach((k, v) -> ini.append(k).append('=').append(v).append('\n'));
    }
    Path conf = tmp.resolve("ports.conf");
    Files.writeString(conf, ini);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path err = tmp.resolve("stderr.txt");
    process = new ProcessBuilder(java.toString(), "-Xmx1g",
        "-Dstrata.log.file=" + tmp.resolve("asterixdb.log"), "-cp",
        System.getProperty("java.class.path"), "org.strata.asterixdb.cli.AsterixDbCommand",
        "start", "--nodes", "1", "--dir", tmp.resolve("cluster").toString(), "--config",
        conf.toString()).redirectError(err.toFile()).start();
    // A start that hangs without printing is killed, so the reads below end.
    Process started = process;
    Thread watchdog = new Thread(() -> {
      try {
        if (!started.waitFor(480, TimeUnit.SECONDS)) {
          started.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "start-command-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(
        process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
        if (line.startsWith("stop with SIGTERM")) {
          break;
        }
      }
      assertThat(lines).as(Files.readString(err)).contains("stop with SIGTERM or Ctrl-C");
      process.toHandle().destroy(); // SIGTERM; Process.destroy would also close our streams
      assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("stopped in time").isTrue();
      for (String l; (l = out.readLine()) != null; ) {
        lines.add(l);
      }
    }
    assertThat(process.exitValue()).as(String.join("\n", lines) + "\n" + Files.readString(err))
        .isZero();
    assertThat(lines).anyMatch(l -> l.startsWith("AsterixDB cluster stopped; data kept in"));
    // A normal start and stop says nothing on stderr: AsterixDB's lifecycle messages go to the
    // log file only.
    assertThat(Files.readString(err)).as("stderr").isEmpty();
    assertThat(tmp.resolve("asterixdb.log")).isNotEmptyFile();
  }
}
