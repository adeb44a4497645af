package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.spi.LevelShape;

/**
 * {@code adaptive-fluid} across a SIGKILL: a child JVM writes until the store's design has moved
 * away from the configured one and is killed at once; the reopened store has the design the child
 * last showed (it was durable before it was shown) and every acknowledged write.
 */
class AdaptiveFluidCrashTest {
  @TempDir Path tmp;

  @Test
  void aKilledStoreReopensWithTheDesignItHadMovedTo() throws Exception {
    Path dir = tmp.resolve("store");
    String cp = System.getProperty("surefire.test.class.path");
    cp = cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(java, "-Xmx128m", "-cp", cp,
        AdaptiveFluidCrashChild.class.getName(), dir.toString()))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    AtomicLong acked = new AtomicLong();
    AtomicReference<LevelShape> design = new AtomicReference<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          String[] w = line.trim().split(" ");
          if (w[0].equals("acked")) {
            acked.set(Long.parseLong(w[1]));
          } else if (w[0].equals("design")) {
            design.set(new LevelShape(Integer.parseInt(w[1]), Integer.parseInt(w[2]),
                Integer.parseInt(w[3])));
          }
        }
      } catch (Exception ignored) {
        // the process died
      }
    });
    reader.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (design.get() == null && p.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertThat(design.get()).as("the child must change its design before it is killed")
          .isNotNull();
    } finally {
      p.destroyForcibly(); // SIGKILL
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    reader.join(10_000);
    LevelShape moved = design.get();
    assertThat(moved).isNotEqualTo(new LevelShape(10, 1, 1));
    try (LsmStore s = LsmStore.open(dir, null)) {
      assertThat(s.levelShape()).as("the design after the restart").contains(moved);
      for (long id = 0; id < acked.get(); id++) {
        Optional<byte[]> v = s.get(AdaptiveFluidEngineTest.key(id));
        assertThat(v).as("acknowledged record %d", id).isPresent();
        assertThat(v.get()).isEqualTo(AdaptiveFluidEngineTest.value(id, 0));
      }
    }
  }
}
