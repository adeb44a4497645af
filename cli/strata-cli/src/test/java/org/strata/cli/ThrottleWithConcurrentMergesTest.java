package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.testing.FaultInjectingFileIo;
import org.strata.lsm.testing.VirtualClock;

/**
 * The shared throttle holds within 5% over every 10 s window while flushes and two merges at a
 * time (a test policy that always schedules two, under the fair scheduler) write at once. Time is
 * virtual: only throttle sleeps move it.
 */
class ThrottleWithConcurrentMergesTest {
  @TempDir Path tmp;

  private record Write(long nanos, int bytes) {}

  @Test
  void budgetHoldsWithConcurrentMerges() {
    long limit = 2L << 20;
    VirtualClock clock = new VirtualClock();
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    List<Write> writes = Collections.synchronizedList(new ArrayList<>());
    io.onWrite((p, n) -> {
      if (p.getFileName().toString().endsWith(".cmp.tmp")) {
        writes.add(new Write(clock.nanoTime(), n));
      }
    });
    StoreConfig cfg = StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin("test-two-merges", Map.of()))
        .withMergeScheduler(new NamedPlugin("fair", Map.of()))
        .withMemoryComponent(MemoryComponentConfig.of(512 * 1024, 2)).withIo(IoConfig.of(limit,
            4 << 20, 4096))
        .withDurability(Durability.NONE);
    List<MergeRecord> merges;
    Random rnd = new Random(3);
    try (LsmStore store = LsmStore.open(tmp.resolve("s"), cfg, new StoreEnvironment(clock, io))) {
      byte[] value = new byte[1000];
      for (int i = 0; i < 60_000; i++) {
        rnd.nextBytes(value);
        store.put(String.format("key%08d", i).getBytes(), value.clone());
      }
      store.flush();
      store.awaitMerges();
      merges = store.stats().mergeLog();
    }
    // The policy scheduled its merges in pairs, both handed to the fair scheduler at once.
    assertThat(merges.size()).isGreaterThanOrEqualTo(4);
    long start = writes.get(0).nanos();
    long end = writes.get(writes.size() - 1).nanos();
    assertThat(end - start).isGreaterThan(30_000_000_000L);
    long window = 10_000_000_000L;
    for (long t = start; t + window <= end; t += 500_000_000L) {
      long bytes = 0;
      for (Write w : writes) {
        if (w.nanos() >= t && w.nanos() < t + window) {
          bytes += w.bytes();
        }
      }
      assertThat((double) bytes).isLessThanOrEqualTo(limit * 10 * 1.05);
    }
  }
}
