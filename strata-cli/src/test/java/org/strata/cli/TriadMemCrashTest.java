package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.cli.TriadMemCrashChild.b;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.ByteCounters;
import org.strata.lsm.LsmStore;
import org.strata.lsm.engine.StoreVerifier;

/**
 * Crash safety of TRIAD-MEM and TRIAD-LOG with real processes: {@link TriadMemCrashChild} writes
 * batches with {@code sync} durability to a store whose flushes carry hot keys over (re-logging
 * them) and skip small flushes, and is killed with SIGKILL at random moments, again and again,
 * while it flushes and merges. The runs alternate between TRIAD-MEM alone and TRIAD-MEM with
 * TRIAD-LOG (flushes write CL-SSTables, indexes over the sealed log segments, which merges read
 * by offset); the same store switches between them, so CL-SSTables written with TRIAD-LOG on are
 * recovered and merged with it off. After every kill the reopened store holds exactly a prefix of
 * the batches that covers every acknowledged one: {@code seq}, every hot key and every cold key
 * agree with the same prefix, and verify (CL-SSTables' segment records included) finds no fault.
 */
class TriadMemCrashTest {
  private static final int KILLS = 8;

  @TempDir Path tmp;

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }

  @Test
  void sigkillDuringFlushesAndMergesLosesNoAcknowledgedWrite() throws Exception {
    Path dir = tmp.resolve("store");
    String common = """
        {"merge-policy": {"name": "constant", "parameters": {"num-components": "3"}},
         "memory-component": {"size": "16KB", "count": 2},
         "io": {"write-rate-limit": "64KB", "force-bytes": "16KB"},
         "log": {"durability": "sync"},
        """;
    Path memConfig = tmp.resolve("triad-mem.json");
    Files.writeString(memConfig, common + "\"triad\": {\"mem\": true, \"hot-percent\": 5}}");
    Path logConfig = tmp.resolve("triad-mem-log.json");
    Files.writeString(logConfig, common
        + "\"triad\": {\"mem\": true, \"hot-percent\": 5, \"log\": true}}");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Random rnd = new Random(20261123);
    long acked = -1;
    long next = 0;
    int killsDuringFlush = 0;
    int killsDuringMerge = 0;
    int logKillsDuringFlushOrMerge = 0;
    long clSsTablesSeen = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      boolean log = kill % 2 == 1;
      Path config = log ? logConfig : memConfig;
      List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-Dstrata.log.level=info",
          "-Dstrata.log.file=" + tmp.resolve("child.log"), "-cp", classPath(),
          TriadMemCrashChild.class.getName(), dir.toString(), config.toString(),
          Long.toString(next)));
      Process p = new ProcessBuilder(cmd).start();
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
      while (lastAck.get() < next && p.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(p.isAlive()).as("the writer must be running before it is killed").isTrue();
      Thread.sleep(300 + rnd.nextInt(1500));
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
      if (log && (flushesOpen.get() > 0 || mergesOpen.get() > 0)) {
        logKillsDuringFlushOrMerge++;
      }
      acked = Math.max(acked, lastAck.get());
      if (log) {
        clSsTablesSeen += clSsTables(dir);
      }
      next = checkStore(dir, acked) + 1;
    }
    ByteCounters bytes;
    try (LsmStore store = LsmStore.open(dir, null)) {
      bytes = store.stats().bytes();
    }
    System.out.printf("TRIAD-MEM/LOG crash test: %d SIGKILLs, %d during a flush, %d during a"
        + " merge, %d of those with TRIAD-LOG on; %d batches acknowledged; %d entries re-logged,"
        + " %d flushes skipped, %d flush data bytes, %d flush index bytes%n", KILLS,
        killsDuringFlush, killsDuringMerge, logKillsDuringFlushOrMerge, acked + 1,
        bytes.reloggedEntries(), bytes.flushesSkipped(), bytes.flushDataBytes(),
        bytes.flushIndexBytes());
    assertThat(clSsTablesSeen).as("TRIAD-LOG runs wrote CL-SSTables").isPositive();
    assertThat(logKillsDuringFlushOrMerge).as("a TRIAD-LOG run was killed in a flush or merge")
        .isPositive();
    assertThat(acked).isGreaterThan(TriadMemCrashChild.PHASE); // both phases ran
    assertThat(bytes.reloggedEntries()).as("hot keys were carried over").isPositive();
    assertThat(bytes.flushesSkipped()).as("small flushes were skipped").isPositive();
    assertThat(killsDuringFlush).isGreaterThan(0);
    assertThat(killsDuringMerge).isGreaterThan(0);
  }

  /** CL-SSTable index files ({@code .cli}) in {@code dir}, as the killed process left them. */
  private static long clSsTables(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(f -> f.getFileName().toString().endsWith(".cli")).count();
    }
  }

  /**
   * Checks that the store holds a prefix of the batches covering batch {@code acked}, consistent
   * in every key; returns the last batch it holds.
   */
  private static long checkStore(Path dir, long acked) throws Exception {
    long last;
    try (LsmStore store = LsmStore.open(dir, null)) {
      last = Long.parseLong(new String(store.get(b("seq")).orElseThrow(),
          StandardCharsets.UTF_8));
      assertThat(last).as("every acknowledged batch is present").isGreaterThanOrEqualTo(acked);
      for (long h = 0; h < TriadMemCrashChild.HOT_KEYS; h++) {
        long i = last - Math.floorMod(last - h, TriadMemCrashChild.HOT_KEYS);
        if (i >= 0) {
          assertThat(store.get(b(TriadMemCrashChild.hotKey(i))).orElse(null))
              .as("hot%d after batch %d", h, last).isEqualTo(TriadMemCrashChild.value(i));
        }
      }
      for (long i = Math.max(0, last - 2 * TriadMemCrashChild.PHASE); i <= last + 50; i++) {
        byte[] expected = i <= last && TriadMemCrashChild.coldPhase(i)
            ? TriadMemCrashChild.coldValue(i) : null;
        assertThat(store.get(b(TriadMemCrashChild.coldKey(i))).orElse(null))
            .as("cold %d after batch %d", i, last).isEqualTo(expected);
      }
    }
    StoreVerifier.VerifyReport report = StoreVerifier.verify(dir);
    assertThat(report.faults()).isEmpty();
    try (Stream<Path> s = Files.list(dir)) {
      assertThat(s.map(f -> f.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }
    return last;
  }
}
