package org.strata.policy.iam;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.engine.StoreVerifier;
import org.strata.lsm.spi.RunInfo;

/**
 * Crash safety of routed merges and moves with real processes: a child JVM writes scattered keys
 * with {@code lsa} or {@code iam} in synced batches (tiny memory components and nodes, so node
 * flushes, splits and moves run all the time) and is killed with SIGKILL at random moments, again
 * and again, each time continuing where the acknowledged records end. After every kill the store
 * is reopened: every acknowledged record is there with its exact value, and verify passes.
 */
class AppendMergeCrashTest {
  private static final int KILLS = 6;

  @TempDir Path tmp;

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = ';', value = {
      "lsa; fanout=3,node-size=24KB; 11",
      "iam; fanout=3,node-size=24KB,mixed-level=2,max-sequences=2; 12"})
  void sigkillLosesNoAcknowledgedWrite(String policy, String params, long seed)
      throws Exception {
    System.out.println("AppendMergeCrashTest " + policy + " seed " + seed);
    Path dir = tmp.resolve(policy);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Random rnd = new Random(seed);
    long acked = 0;
    int killsWithFileBeingWritten = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      List<String> cmd = new ArrayList<>(List.of(java, "-Xmx128m", "-cp", classPath(),
          AppendMergeCrashChild.class.getName(), dir.toString(), policy, params,
          Long.toString(acked)));
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
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
      // wait (bounded) for the first acknowledgement, then let it run a random while
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (lastAck.get() < 0 && p.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(p.isAlive()).as("the writer must be running before it is killed").isTrue();
      Thread.sleep(300 + rnd.nextInt(1500));
      p.destroyForcibly(); // SIGKILL
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      reader.join(10_000);
      acked = Math.max(acked, lastAck.get());
      try (Stream<Path> s = Files.list(dir)) {
        if (s.anyMatch(f -> f.getFileName().toString().endsWith(".tmp"))) {
          killsWithFileBeingWritten++;
        }
      }
      checkStore(dir, acked);
    }
    System.out.printf("crash test %s: %d SIGKILLs, %d while a file was being written, %d records"
        + " acknowledged%n", policy, KILLS, killsWithFileBeingWritten, acked);
    assertThat(acked).isGreaterThan(0);
    // kills must land while component files are being written, not only between operations
    assertThat(killsWithFileBeingWritten).isGreaterThan(0);
  }

  private static void checkStore(Path dir, long acked) throws Exception {
    try (LsmStore store = LsmStore.open(dir, null)) {
      for (long id = 0; id < acked; id++) {
        Optional<byte[]> v = store.get(AppendMergeCrashChild.key(id)
            .getBytes(StandardCharsets.UTF_8));
        assertThat(v).as("acknowledged record %d", id).isPresent();
        assertThat(v.get()).as("value of record %d", id).isEqualTo(AppendMergeCrashChild.value(id));
      }
      int deepest = 0;
      for (RunInfo r : store.runs()) {
        deepest = Math.max(deepest, TreeLayout.treeLevel(r.level()));
      }
      System.out.println("  reopened: " + acked + " acknowledged, tree depth " + deepest + ", "
          + store.runs().size() + " runs");
    }
    assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
  }
}
