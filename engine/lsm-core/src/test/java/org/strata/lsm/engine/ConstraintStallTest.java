package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.lsm.testing.TestStores.b;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.StrataException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.testing.TestStores;

/**
 * A violated component constraint with a merge pending stops the next write, though the active
 * memory component has room: the writer waits (a constraint stall) instead of getting past on the
 * admission's lock-free path ({@link WriteGate#admit}), until close releases it.
 */
class ConstraintStallTest {
  @TempDir Path dir;

  @Test
  void aWriteWaitsWhileTheConstraintIsViolatedAndAMergeIsPending() throws Exception {
    // test-merge-all: merge every run above 1, lagging above 1 run while merging; test-parked
    // accepts the merge and never runs it, so the constraint stays violated.
    StoreConfig cfg = TestStores.smallConfig(1)
        .withMergePolicy(new NamedPlugin("test-merge-all", Map.of("max", "1", "lag", "1")))
        .withMergeScheduler(new NamedPlugin("test-parked", Map.of()));
    AtomicReference<Throwable> outcome = new AtomicReference<>();
    Thread writer;
    try (LsmStore store = LsmStore.open(dir, cfg)) {
      for (int flush = 0; flush < 2; flush++) {
        store.put(b("k" + flush), new byte[100]);
        store.flush();
      }
      assertThat(store.runs()).hasSize(2).allMatch(r -> r.merging());
      writer = new Thread(() -> {
        try {
          store.put(b("next"), b("x"));
          outcome.set(new AssertionError("the write went ahead past the violated constraint"));
        } catch (StrataException e) {
          outcome.set(e); // released by close
        }
      });
      writer.start();
      for (int i = 0; i < 10_000 && !store.stats().stalledNow() && writer.isAlive(); i++) {
        Thread.sleep(1);
      }
      assertThat(outcome.get()).as("the writer has not returned").isNull();
      assertThat(store.stats().stalledNow()).as("the writer waits").isTrue();
      assertThat(writer.isAlive()).isTrue();
    }
    writer.join(10_000);
    assertThat(writer.isAlive()).as("close released the writer").isFalse();
    assertThat(outcome.get()).isInstanceOf(StrataException.class)
        .hasMessageContaining("closed");
  }
}
