package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.testing.FaultInjectingFileIo;
import org.strata.lsm.testing.TestStores;
import org.strata.lsm.testing.VirtualClock;

/**
 * With {@code io.write-rate-limit} set, the bytes flushes and merges write over any 10 s window
 * stay within 5% of the limit. Time is virtual: only the throttle's sleeps advance it, so the test
 * checks the throttle's arithmetic exactly and takes real time only for the actual writes.
 */
class ThrottleTest {
  @TempDir Path tmp;

  private record Write(long nanos, int bytes) {}

  @Test
  void flushAndMergeWritesStayWithinTheLimitOverEveryTenSecondWindow() {
    long limit = 2L << 20; // 2 MB/s
    VirtualClock clock = new VirtualClock();
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    List<Write> writes = java.util.Collections.synchronizedList(new ArrayList<>());
    io.onWrite((p, n) -> {
      if (p.getFileName().toString().endsWith(".cmp.tmp")) {
        writes.add(new Write(clock.nanoTime(), n));
      }
    });
    Random rnd = new Random(7);
    try (LsmStore store = LsmStore.open(tmp.resolve("s"), TestStores.smallConfig(3)
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2)).withIo(IoConfig.of(limit,
            4 << 20, 4096)),
        new StoreEnvironment(clock, io))) {
      byte[] value = new byte[1000];
      for (int i = 0; i < 60_000; i++) {
        rnd.nextBytes(value);
        store.put(String.format("key%08d", rnd.nextInt(40_000)).getBytes(), value.clone());
      }
      store.flush();
      store.awaitMerges();
      assertThat(store.stats().merges()).isGreaterThan(0);
    }
    long total = writes.stream().mapToLong(Write::bytes).sum();
    long start = writes.get(0).nanos();
    long end = writes.get(writes.size() - 1).nanos();
    assertThat(end - start).as("the run must span many windows").isGreaterThan(40_000_000_000L);
    long window = 10_000_000_000L;
    double maxAllowed = limit * 10 * 1.05;
    for (long t = start; t + window <= end; t += 500_000_000L) {
      long bytes = 0;
      for (Write w : writes) {
        if (w.nanos() >= t && w.nanos() < t + window) {
          bytes += w.bytes();
        }
      }
      assertThat((double) bytes).as("bytes in [%d s, +10 s)", (t - start) / 1_000_000_000L)
          .isLessThanOrEqualTo(maxAllowed);
    }
    // Over the whole run the throttle was the only thing advancing time, so the average rate is
    // the limit: the throttle neither lets more through nor holds writers back needlessly.
    double rate = total / ((end - start) / 1e9);
    assertThat(rate).isBetween(limit * 0.95, limit * 1.05);
  }
}
