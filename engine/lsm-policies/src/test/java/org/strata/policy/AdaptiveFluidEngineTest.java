package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.KeyValue;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.spi.LevelShape;

/**
 * {@code adaptive-fluid} on the engine: the design moves with the workload while writers and
 * readers run, every read agrees with a sorted map of what was written, and a reopened store keeps
 * the design it had moved to; a store written under a fixed policy (a manifest without the
 * adaptive state) starts from the configured design.
 */
class AdaptiveFluidEngineTest {
  static final int VALUE_BYTES = 100;

  @TempDir Path dir;

  static StoreConfig config(String windowOps) {
    return StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin("adaptive-fluid", Map.of("window-ops", windowOps,
            "margin", "0.05")))
        .withMergeScheduler(new NamedPlugin("test-serial", Map.of()))
        .withMemoryComponent(MemoryComponentConfig.of(64 << 10, 2))
        .withDurability(Durability.NONE);
  }

  static byte[] key(long k) {
    return String.format("k%09d", k).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] value(long k, long version) {
    byte[] v = new byte[VALUE_BYTES];
    byte[] head = (k + "/" + version + "/").getBytes(StandardCharsets.UTF_8);
    System.arraycopy(head, 0, v, 0, head.length);
    for (int i = head.length; i < v.length; i++) {
      v[i] = (byte) ('a' + (k + i) % 26);
    }
    return v;
  }

  @Test
  void theDesignFollowsTheMixWhileWritersAndReadersRunAndReadsMatchASortedMap()
      throws Exception {
    int writers = 2;
    int keysPerWriter = 20_000;
    // what each writer wrote last per key (null: deleted); a writer owns the keys k % writers
    ConcurrentSkipListMap<Long, Optional<byte[]>> model = new ConcurrentSkipListMap<>();
    List<LevelShape> shapes = new CopyOnWriteArrayList<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    try (LsmStore s = LsmStore.open(dir, config("4000"))) {
      LevelShape initial = s.levelShape().orElseThrow();
      assertThat(initial).isEqualTo(new LevelShape(10, 1, 1));
      shapes.add(initial);
      AtomicBoolean stop = new AtomicBoolean();
      Thread watcher = new Thread(() -> {
        while (!stop.get()) {
          LevelShape now = s.levelShape().orElseThrow();
          if (!now.equals(shapes.get(shapes.size() - 1))) {
            shapes.add(now);
          }
          try {
            Thread.sleep(1);
          } catch (InterruptedException e) {
            return;
          }
        }
      });
      watcher.start();
      // three phases: write-heavy, lookup-heavy (a trickle of writes), write-heavy again
      int[][] phases = {{keysPerWriter, 0}, {keysPerWriter / 10, 40}, {keysPerWriter, 0}};
      long version = 0;
      for (int[] phase : phases) {
        version++;
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          int me = w;
          long ver = version;
          threads.add(new Thread(() -> {
            Random rnd = new Random(me * 31L + ver);
            try {
              for (int i = 0; i < phase[0]; i++) {
                long k = (long) rnd.nextInt(keysPerWriter) * writers + me;
                if (rnd.nextInt(20) == 0) {
                  s.delete(key(k));
                  model.put(k, Optional.empty());
                } else {
                  byte[] v = value(k, ver * 1_000_000 + i);
                  s.put(key(k), v);
                  model.put(k, Optional.of(v));
                }
                for (int r = 0; r < phase[1]; r++) { // lookups of keys this writer owns
                  long q = (long) rnd.nextInt(keysPerWriter * 2) * writers + me;
                  Optional<byte[]> expected = model.getOrDefault(q, Optional.empty());
                  Optional<byte[]> got = s.get(key(q));
                  if (expected.isPresent() != got.isPresent()
                      || expected.isPresent() && !java.util.Arrays.equals(expected.get(),
                          got.get())) {
                    throw new AssertionError("key " + q + ": expected "
                        + expected.map(String::new) + ", read " + got.map(String::new));
                  }
                }
              }
            } catch (Throwable t) {
              failure.compareAndSet(null, t);
            }
          }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
          t.join();
        }
        s.flush(); // the policy decides at flushes and merges: let this phase's window close
      }
      s.awaitMerges();
      stop.set(true);
      watcher.join();
      assertThat(failure.get()).as("a reader or writer failed").isNull();
      checkAgainst(s, model);
    }
    System.out.println("AdaptiveFluidEngineTest designs in order: " + shapes);
    assertThat(shapes).as("the design must move at least twice (to the write-heavy design,"
        + " to the lookup-heavy one and back): %s", shapes).hasSizeGreaterThanOrEqualTo(3);
    LevelShape last = shapes.get(shapes.size() - 1);
    try (LsmStore s = LsmStore.open(dir, config("4000"))) {
      assertThat(s.levelShape()).as("a reopened store keeps the design it moved to")
          .contains(last);
      checkAgainst(s, model);
    }
  }

  @Test
  void aStoreWrittenUnderAFixedPolicyStartsFromTheConfiguredDesign() throws Exception {
    StoreConfig fixed = config("4000").withMergePolicy(new NamedPlugin("fluid",
        Map.of("size-ratio", "4", "K", "3")));
    try (LsmStore s = LsmStore.open(dir, fixed)) {
      for (int i = 0; i < 5_000; i++) {
        s.put(key(i), value(i, 0));
      }
      s.flush();
      s.awaitMerges();
    }
    StoreConfig adaptive = config("1000000").withMergePolicy(new NamedPlugin("adaptive-fluid",
        Map.of("size-ratio", "6", "K", "2", "window-ops", "1000000")));
    try (LsmStore s = LsmStore.open(dir, adaptive)) {
      assertThat(s.levelShape()).contains(new LevelShape(6, 2, 1));
      assertThat(s.get(key(4_999))).isPresent();
    }
  }

  static void checkAgainst(LsmStore s, Map<Long, Optional<byte[]>> model) {
    ConcurrentHashMap<String, byte[]> live = new ConcurrentHashMap<>();
    model.forEach((k, v) -> v.ifPresent(b -> live.put(new String(key(k),
        StandardCharsets.UTF_8), b)));
    model.forEach((k, v) -> {
      Optional<byte[]> got = s.get(key(k));
      assertThat(got.isPresent()).as("key %d present", k).isEqualTo(v.isPresent());
      v.ifPresent(b -> assertThat(got.get()).as("value of key %d", k).isEqualTo(b));
    });
    int scanned = 0;
    try (ScanCursor c = s.scan(key(0), key(Long.MAX_VALUE / 2))) {
      while (c.hasNext()) {
        KeyValue kv = c.next();
        byte[] expected = live.get(new String(kv.key(), StandardCharsets.UTF_8));
        assertThat(expected).as("scanned key %s", new String(kv.key(), StandardCharsets.UTF_8))
            .isNotNull();
        assertThat(kv.value()).isEqualTo(expected);
        scanned++;
      }
    }
    assertThat(scanned).as("the scan returns every live key once").isEqualTo(live.size());
  }
}
