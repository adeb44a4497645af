package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.engine.LsmTreeModelTest.Case;
import org.strata.lsm.engine.LsmTreeModelTest.Delete;
import org.strata.lsm.engine.LsmTreeModelTest.Flush;
import org.strata.lsm.engine.LsmTreeModelTest.Get;
import org.strata.lsm.engine.LsmTreeModelTest.Merge;
import org.strata.lsm.engine.LsmTreeModelTest.Op;
import org.strata.lsm.engine.LsmTreeModelTest.Put;
import org.strata.lsm.engine.LsmTreeModelTest.Reopen;
import org.strata.lsm.engine.LsmTreeModelTest.Scan;
import org.strata.lsm.config.HotKeySelector;
import org.strata.lsm.testing.property.Generator;
import org.strata.lsm.testing.property.Lists;
import org.strata.lsm.testing.property.PropertyRunner;
import org.strata.lsm.testing.property.Weighted;

/**
 * The engine with TRIAD-MEM on against a sorted-map model: skewed keys (so hot keys exist and are
 * carried over), both selectors, flush thresholds that skip flushes or not, flushes, merges,
 * reopens and concurrent writers.
 */
class TriadMemModelTest {

  private static int between(SplittableRandom r, int min, int max) {
    return min + r.nextInt(max - min + 1);
  }

  /** Skewed cases: most writes go to a handful of keys, the rest spread over 300. */
  static Generator<Case> skewedCases() {
    Generator<Integer> key = new Weighted<Integer>()
        .or(7, r -> between(r, 0, 4))
        .or(3, r -> between(r, 0, 300));
    Generator<Integer> valueLen = new Weighted<Integer>()
        .or(9, r -> between(r, 0, 120))
        .or(1, r -> between(r, 500, 1500));
    Generator<Op> op = new Weighted<Op>()
        .or(60, r -> new Put(key.generate(r), valueLen.generate(r), r.nextInt()))
        .or(10, r -> new Delete(key.generate(r)))
        .or(20, r -> new Get(key.generate(r)))
        .or(4, r -> new Scan(key.generate(r), key.generate(r)))
        .or(1, r -> new Flush())
        .or(1, r -> new Merge())
        .or(1, r -> new Reopen());
    int[] splits = {2048, Integer.MAX_VALUE};
    return r -> new Case(Lists.of(r, 100, 900, op), between(r, 1, 6),
        splits[r.nextInt(splits.length)]);
  }

  private static StoreConfig config(Case c) {
    // the case's own numbers choose the TRIAD-MEM settings, so a seed replays them
    int h = Math.floorMod(c.ops().size() * 31 + c.maxComponents(), 4);
    HotKeySelector selector = h % 2 == 0 ? HotKeySelector.TOP_K : HotKeySelector.ABOVE_MEAN;
    long threshold = h < 2 ? 0 : 1536; // 0: never skip a flush; 1536 of 4096: often
    StoreConfig cfg = LsmTreeModelTest.config(c.maxComponents(), c.split());
    if (Math.floorMod(c.ops().size() * 17 + c.split(), 3) == 0) {
      // the paper's two bounds: a 4 KB memtable (live-size) inside a 16 KB commit log (size),
      // and K as a number of keys
      return cfg.withMemoryComponent(MemoryComponentConfig.of(16 * 1024, 2).withLiveSize(4096))
          .withTriad(new TriadConfig(true, selector, 10.0, ByteSize.ofBytes(threshold), null, 3));
    }
    return cfg.withTriad(new TriadConfig(true, selector, 10.0, ByteSize.ofBytes(threshold)));
  }

  @Test
  void engineWithTriadMemBehavesLikeASortedMap() {
    PropertyRunner.forAll(skewedCases()).tries(40)
        .shrinkWith(Lists.shrinking(Case::ops, (c, ops) -> new Case(ops, c.maxComponents(),
            c.split()), 0))
        .check("engine with TRIAD-MEM behaves like a sorted map",
            c -> LsmTreeModelTest.run(c.ops(), config(c)));
  }

  private static byte[] key(int thread, int k) {
    return String.format("t%d-k%04d", thread, k).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Concurrent writers, each on its own keys (so each has its own exact model), with skewed
   * updates, while the main thread flushes and merges; then a reopen. Seeded: the seed is printed
   * and each writer's operations depend only on it.
   */
  @ParameterizedTest(name = "seed {0}, {1}")
  @CsvSource({"11, TOP_K", "12, ABOVE_MEAN", "13, TOP_K"})
  void concurrentWritersFlushesMergesAndReopen(long seed, HotKeySelector selector)
      throws Exception {
    System.out.println("TriadMemModelTest.concurrentWriters seed " + seed);
    concurrentRun(seed, new TriadConfig(true, selector, 5.0, ByteSize.ofBytes(2048)));
  }

  /**
   * The concurrent run of {@link #concurrentWritersFlushesMergesAndReopen} with the {@code triad}
   * section {@code triad}; a run with TRIAD-MEM on checks that hot keys were carried.
   */
  static void concurrentRun(long seed, TriadConfig triad) throws Exception {
    Path dir = Files.createTempDirectory("strata-triad-model");
    int threads = 4;
    int opsPerThread = 4000;
    List<TreeMap<String, byte[]>> models = new ArrayList<>();
    StoreConfig cfg = LsmTreeModelTest.config(4, 4096)
        .withMemoryComponent(org.strata.lsm.config.MemoryComponentConfig.of(16 * 1024, 2))
        .withTriad(triad);
    LsmStore store = LsmStore.open(dir, cfg);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> writers = new ArrayList<>();
      List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int t = 0; t < threads; t++) {
        TreeMap<String, byte[]> model = new TreeMap<>();
        models.add(model);
        int id = t;
        LsmStore s = store;
        Thread w = new Thread(() -> {
          SplittableRandom r = new SplittableRandom(seed * 1000 + id);
          try {
            start.await();
            for (int i = 0; i < opsPerThread; i++) {
              int k = r.nextInt(10) < 8 ? r.nextInt(3) : r.nextInt(400);
              byte[] kb = key(id, k);
              String ks = new String(kb, StandardCharsets.UTF_8);
              if (r.nextInt(12) == 0) {
                s.delete(kb);
                model.remove(ks);
              } else {
                byte[] v = new byte[r.nextInt(100)];
                r.nextBytes(v);
                s.put(kb, v);
                model.put(ks, v);
              }
            }
          } catch (Throwable e) {
            errors.add(e);
          }
        }, "triad-writer-" + t);
        writers.add(w);
        w.start();
      }
      start.countDown();
      for (int j = 0; j < 3; j++) {
        store.flush();
        store.compact();
      }
      for (Thread w : writers) {
        w.join();
      }
      assertThat(errors).isEmpty();
      if (triad.mem()) {
        assertThat(store.stats().bytes().reloggedEntries()).as("hot keys were carried")
            .isPositive();
      }
      if (triad.log()) { // every flush of this open was a CL-SSTable: an index, no value bytes
        assertThat(store.stats().bytes().flushIndexBytes()).isPositive();
        assertThat(store.stats().bytes().flushDataBytes()).isZero();
      }
      check(store, models, threads);
      store.close();
      store = LsmStore.open(dir, null);
      check(store, models, threads);
      store.compact();
      check(store, models, threads);
      store.close();
      assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
      store = LsmStore.open(dir, null);
      check(store, models, threads);
    } finally {
      store.close();
      LsmTreeModelTest.deleteTree(dir);
    }
  }

  private static void check(LsmStore store, List<TreeMap<String, byte[]>> models, int threads)
      throws IOException {
    TreeMap<String, byte[]> all = new TreeMap<>();
    models.forEach(all::putAll);
    List<String> scanned = new ArrayList<>();
    try (ScanCursor c = store.scan(null, null)) {
      while (c.hasNext()) {
        KeyValue kv = c.next();
        String k = new String(kv.key(), StandardCharsets.UTF_8);
        scanned.add(k);
        assertThat(kv.value()).as("scan %s", k).isEqualTo(all.get(k));
      }
    }
    assertThat(scanned).containsExactlyElementsOf(all.keySet());
    for (int t = 0; t < threads; t++) {
      for (int k = 0; k < 400; k++) {
        byte[] kb = key(t, k);
        assertThat(store.get(kb).orElse(null)).as("get t%d k%d", t, k)
            .isEqualTo(all.get(new String(kb, StandardCharsets.UTF_8)));
      }
    }
  }
}
