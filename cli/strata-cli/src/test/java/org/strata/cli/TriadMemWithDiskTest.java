package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.ByteCounters;
import org.strata.lsm.KeyValue;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.engine.StoreVerifier;

/**
 * TRIAD-MEM together with TRIAD-DISK (the example configuration {@code triad-mem-disk.json},
 * scaled down): a skewed workload against a sorted-map model, across a reopen; hot keys are
 * carried over, level-0 merges into level 1 happen, and the per-level merge bytes add up. Seeded.
 */
class TriadMemWithDiskTest {
  @TempDir Path tmp;

  /** TRIAD-DISK scaled down to the test's data: 32 KB files, a 256 KB level 1. */
  private static final NamedPlugin TRIAD_DISK = new NamedPlugin("triad-disk", Map.of("file-size",
      "32KB", "level1-size", "256KB", "overlap-ratio", "0.4", "max-l0-files", "6"));

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {3, 4})
  void skewedWritesMatchTheModel(long seed) {
    System.out.println("TriadMemWithDiskTest seed " + seed);
    Run r = runAgainstTheModel(tmp.resolve("store-" + seed),
        example("triad-mem-disk.json", TRIAD_DISK), seed);
    assertThat(r.bytes().reloggedEntries()).as("hot keys carried over").isPositive();
    assertThat(r.bytes().mergeBytesByLevel()).as("level-0 merges into level 1").containsKey(1);
    assertThat(r.bytes().mergeBytes()).isEqualTo(r.bytesMerged());
  }

  /**
   * Full TRIAD, the named configuration {@code examples/triad.json} (TRIAD-MEM, TRIAD-DISK and
   * TRIAD-LOG), scaled down: flushes write CL-SSTables (index bytes only), TRIAD-DISK merges them
   * into level 1 reading values from the log segments, and the store equals the model across a
   * reopen and passes verify.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {6})
  void fullTriadMatchesTheModel(long seed) {
    System.out.println("TriadMemWithDiskTest full TRIAD seed " + seed);
    StoreConfig cfg = example("triad.json", TRIAD_DISK);
    assertThat(cfg.triad().log()).isTrue();
    ByteCounters b = runAgainstTheModel(tmp.resolve("triad-" + seed), cfg, seed).bytes();
    assertThat(b.reloggedEntries()).as("hot keys carried over").isPositive();
    assertThat(b.flushIndexBytes()).as("CL-SSTable indexes").isPositive();
    assertThat(b.flushDataBytes()).as("no value bytes flushed").isZero();
    assertThat(b.mergeBytesByLevel()).as("level-0 merges into level 1").containsKey(1);
  }

  /**
   * TRIAD-MEM under the LSA-tree, whose flushes are cut into files at its level-1 nodes: the store
   * equals the model across a reopen (that carried keys stay out of the cut files is checked by
   * lsm-policies' {@code TriadMemCutFlushTest}, since reads are right either way).
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {5})
  void hotKeysUnderTheLsaTreesCutFlushesMatchTheModel(long seed) {
    System.out.println("TriadMemWithDiskTest lsa seed " + seed);
    Run r = runAgainstTheModel(tmp.resolve("lsa-" + seed), example("triad-mem-disk.json",
        new NamedPlugin("lsa", Map.of("fanout", "3", "node-size", "64KB"))), seed);
    assertThat(r.bytes().reloggedEntries()).as("hot keys carried over").isPositive();
  }

  /** The example configuration {@code file} with {@code policy} and 64 KB memory components. */
  private static StoreConfig example(String file, NamedPlugin policy) {
    return StoreConfigJson.read(Path.of("..", "..", "examples", file)).withMergePolicy(policy)
        .withMemoryComponent(MemoryComponentConfig.of(64 * 1024, 2));
  }

  /** What a run's store counted before it closed. */
  private record Run(ByteCounters bytes, long bytesMerged) {}

  /**
   * Writes the skewed workload into a new store at {@code dir}, checks it against the model, then
   * checks {@code verify} and the model again after a reopen.
   */
  private static Run runAgainstTheModel(Path dir, StoreConfig cfg, long seed) {
    TreeMap<String, byte[]> model;
    Run run;
    try (LsmStore store = LsmStore.open(dir, cfg)) {
      model = writeSkewed(store, seed);
      check(store, model);
      run = new Run(store.stats().bytes(), store.stats().bytesMerged());
    }
    assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
    try (LsmStore store = LsmStore.open(dir, null)) {
      check(store, model);
    }
    return run;
  }

  /**
   * 30,000 writes, 90% of them to 20 hot keys, one in 20 a delete; waits for the merges and
   * returns the model of what the store must hold.
   */
  private static TreeMap<String, byte[]> writeSkewed(LsmStore store, long seed) {
    TreeMap<String, byte[]> model = new TreeMap<>();
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 30_000; i++) {
      int k = r.nextInt(100) < 90 ? r.nextInt(20) : r.nextInt(5000);
      String key = String.format("key%06d", k);
      if (r.nextInt(20) == 0) {
        store.delete(key.getBytes(StandardCharsets.UTF_8));
        model.remove(key);
      } else {
        byte[] v = new byte[20 + r.nextInt(80)];
        r.nextBytes(v);
        store.put(key.getBytes(StandardCharsets.UTF_8), v);
        model.put(key, v);
      }
    }
    store.awaitMerges();
    return model;
  }

  private static void check(LsmStore store, TreeMap<String, byte[]> model) {
    TreeMap<String, byte[]> seen = new TreeMap<>();
    try (ScanCursor c = store.scan(null, null)) {
      while (c.hasNext()) {
        KeyValue kv = c.next();
        seen.put(new String(kv.key(), StandardCharsets.UTF_8), kv.value());
      }
    }
    assertThat(seen.keySet()).containsExactlyElementsOf(model.keySet());
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertThat(seen.get(e.getKey())).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(store.get(e.getKey().getBytes(StandardCharsets.UTF_8)).orElseThrow())
          .isEqualTo(e.getValue());
    }
  }
}
