package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.KeyValue;
import org.strata.lsm.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.engine.StoreVerifier;

/**
 * Crash safety with real processes: {@code strata load --durability sync --key-order sequential}
 * runs in a child JVM and is killed with SIGKILL at random moments, again and again, while it
 * flushes and merges (tiny memory components, a constant policy and a throttled disk keep both busy).
 * After every kill the store is reopened: every key the child acknowledged is present with its
 * exact value, no temporary or unlisted component survives, and verify passes.
 */
class CrashRecoveryTest {
  private static final int KILLS = 22;
  private static final long SEED = 7;
  private static final int RECORD_SIZE = 300;

  @TempDir Path tmp;

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }

  @Test
  void sigkillDuringLoadLosesNoAcknowledgedWrite() throws Exception {
    Path dir = tmp.resolve("store");
    Path config = tmp.resolve("crash.json");
    Files.writeString(config, """
        {"merge-policy": {"name": "constant", "parameters": {"num-components": "3"}},
         "memory-component": {"size": "192KB", "count": 2},
         "io": {"write-rate-limit": "3MB", "force-bytes": "256KB"},
         "log": {"durability": "sync"}}
        """);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Random rnd = new Random(20261122);
    long acked = 0;
    int killsWithFileBeingWritten = 0;
    int killsDuringFlush = 0;
    int killsDuringMerge = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-Dstrata.log.level=info",
          "-Dstrata.log.file=" + tmp.resolve("child.log"), "-cp", classPath(),
          Main.class.getName(), "load", "--dir", dir.toString(), "--config", config.toString(),
          "--records", "100000000", "--record-size", Integer.toString(RECORD_SIZE),
          "--key-order", "sequential", "--seed", Long.toString(SEED), "--durability", "sync",
          "--batch-size", "20"));
      Process p = new ProcessBuilder(cmd).start();
      // The engine logs the start and end of every flush and merge; what was in progress when
      // the kill landed is what started and did not finish.
      AtomicInteger flushesOpen = new AtomicInteger();
      AtomicInteger mergesOpen = new AtomicInteger();
      Thread logReader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(),
            StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            if (line.contains("flush started")) {
              flushesOpen.incrementAndGet();
            } else if (line.contains("flush finished")) {
              flushesOpen.decrementAndGet();
            } else if (line.contains("merge started")) {
              mergesOpen.incrementAndGet();
            } else if (line.contains("merge finished")) {
              mergesOpen.decrementAndGet();
            }
          }
        } catch (Exception ignored) {
          // the process died
        }
      });
      logReader.start();
      AtomicLong lastAck = new AtomicLong(-1);
      Thread reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            if (line.startsWith("acked ")) {
              lastAck.set(Long.parseLong(line.substring(6).trim()));
            }
          }
        } catch (Exception ignored) {
          // the process died
        }
      });
      reader.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (lastAck.get() < 0 && p.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(p.isAlive()).as("the loader must be running before it is killed").isTrue();
      Thread.sleep(100 + rnd.nextInt(1200));
      p.destroyForcibly(); // SIGKILL
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      reader.join(10_000);
      logReader.join(10_000);
      if (flushesOpen.get() > 0) {
        killsDuringFlush++;
      }
      if (mergesOpen.get() > 0) {
        killsDuringMerge++;
      }
      acked = Math.max(acked, lastAck.get());
      if (hasFileBeingWritten(dir)) {
        killsWithFileBeingWritten++;
      }
      checkStore(dir, acked);
    }
    System.out.printf("crash test: %d SIGKILLs: %d during a flush, %d during a merge, %d while a"
        + " component file was being written; %d records acknowledged%n", KILLS, killsDuringFlush,
        killsDuringMerge, killsWithFileBeingWritten, acked);
    assertThat(acked).isGreaterThan(0);
    // Kills must land inside flushes and inside merges, not only between operations.
    assertThat(killsWithFileBeingWritten).isGreaterThan(0);
    assertThat(killsDuringFlush).isGreaterThan(0);
    assertThat(killsDuringMerge).isGreaterThan(0);
  }

  private static boolean hasFileBeingWritten(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(f -> f.getFileName().toString().endsWith(".cmp.tmp"));
    }
  }

  private static void checkStore(Path dir, long acked) throws Exception {
    try (LsmStore store = LsmStore.open(dir, null)) {
      long id = 0;
      try (ScanCursor c = store.scan(RecordGenerator.key(0).getBytes(StandardCharsets.UTF_8),
          null)) {
        while (id < acked && c.hasNext()) {
          KeyValue kv = c.next();
          String expectedKey = RecordGenerator.key(id);
          assertThat(new String(kv.key(), StandardCharsets.UTF_8)).isEqualTo(expectedKey);
          assertThat(Arrays.equals(kv.value(), RecordGenerator.value(id, SEED, RECORD_SIZE)))
              .as("value of %s", expectedKey).isTrue();
          id++;
        }
      }
      assertThat(id).as("acknowledged keys present").isEqualTo(acked);
    }
    // Closed again: nothing temporary is left, and every component file is one the manifest lists
    // (verify checks exactly the listed ones).
    StoreVerifier.VerifyReport report = StoreVerifier.verify(dir);
    assertThat(report.faults()).isEmpty();
    try (Stream<Path> s = Files.list(dir)) {
      List<String> names = s.map(f -> f.getFileName().toString()).toList();
      assertThat(names).noneMatch(n -> n.endsWith(".tmp"));
      assertThat(names.stream().filter(n -> n.endsWith(".cmp")).count())
          .isEqualTo(report.componentsChecked());
    }
  }

}
