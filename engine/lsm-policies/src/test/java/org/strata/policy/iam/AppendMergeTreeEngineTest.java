package org.strata.policy.iam;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.strata.lsm.Durability;
import org.strata.lsm.KeyValue;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.engine.StoreVerifier;
import org.strata.lsm.spi.RunInfo;

/**
 * The engine with {@code lsa} and {@code iam} equals a sorted-map model: concurrent writers of
 * puts and deletes with tiny memory components (flushes, node flushes, splits, moves all the
 * time), reads while writing, then gets, scans, verify and a reopen. Seeded; the seed is printed.
 */
class AppendMergeTreeEngineTest {
  @TempDir Path tmp;

  static StoreConfig config(String policy, Map<String, String> params) {
    return StoreConfig.defaults().withMergePolicy(new NamedPlugin(policy, params))
        .withMergeScheduler(new NamedPlugin("test-serial", Map.of()))
        .withMemoryComponent(MemoryComponentConfig.of(16 * 1024, 2))
        .withDurability(Durability.NONE).withIo(IoConfig.of(0, 1 << 20, 1024));
  }

  static Map<String, String> params(String csv) {
    Map<String, String> p = new java.util.HashMap<>();
    if (csv != null && !csv.isBlank()) {
      for (String kv : csv.split(",")) {
        String[] parts = kv.split("=");
        p.put(parts[0].trim(), parts[1].trim());
      }
    }
    return p;
  }

  @ParameterizedTest(name = "{0} {1} seed {2}")
  @CsvSource(delimiter = ';', value = {
      "lsa; fanout=3,node-size=16384; 1",
      "lsa; fanout=4,node-size=16384; 2",
      "iam; fanout=3,node-size=16384,mixed-level=2,max-sequences=2; 3",
      "iam; fanout=3,node-size=16384,mixed-level=1,max-sequences=1; 4",
      "iam; fanout=3,node-size=16384,cache-size=64KB; 5"})
  void storeEqualsTheModel(String policy, String csv, long seed) throws Exception {
    System.out.println("AppendMergeTreeEngineTest " + policy + " " + csv + " seed " + seed);
    Path dir = tmp.resolve(policy + seed);
    int writers = 3;
    int keys = 4000;
    ConcurrentSkipListMap<String, String> model = new ConcurrentSkipListMap<>();
    try (LsmStore store = LsmStore.open(dir, config(policy, params(csv)))) {
      List<Thread> threads = new ArrayList<>();
      List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
      for (int w = 0; w < writers; w++) {
        int me = w;
        Thread th = new Thread(() -> {
          Random rnd = new Random(seed * 31 + me);
          try {
            for (int i = 0; i < 6000; i++) {
              // each writer owns the keys k with k % writers == me, so the model is exact
              int k = rnd.nextInt(keys / writers) * writers + me;
              String key = String.format("k%06d", k);
              if (rnd.nextInt(8) == 0) {
                store.delete(key.getBytes(StandardCharsets.UTF_8));
                model.remove(key);
              } else {
                String value = "v" + me + "-" + i + "-".repeat(rnd.nextInt(60));
                store.put(key.getBytes(StandardCharsets.UTF_8),
                    value.getBytes(StandardCharsets.UTF_8));
                model.put(key, value);
              }
              if (i % 500 == 0) { // a read of an owned key sees the writer's last write
                assertThat(get(store, key)).isEqualTo(Optional.ofNullable(model.get(key)));
              }
            }
          } catch (Throwable e) {
            errors.add(e);
          }
        });
        threads.add(th);
        th.start();
      }
      for (Thread th : threads) {
        th.join();
      }
      assertThat(errors).isEmpty();
      store.flush();
      store.awaitMerges();
      assertThat(store.stats().merges()).as("merges").isPositive();
      assertSame(scan(store), model, store);
      for (int k = 0; k < keys; k += 3) {
        String key = String.format("k%06d", k);
        assertThat(get(store, key)).as(key).isEqualTo(Optional.ofNullable(model.get(key)));
      }
      assertStructure(store.runs(), policy, params(csv));
    }
    assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
    try (LsmStore reopened = LsmStore.open(dir, null)) {
      assertSame(scan(reopened), model, reopened);
      reopened.put("zz".getBytes(StandardCharsets.UTF_8), "after".getBytes(StandardCharsets.UTF_8));
      reopened.flush();
      reopened.awaitMerges();
      model.put("zz", "after");
      assertSame(scan(reopened), model, reopened);
    }
  }

  /**
   * docs/papers/iam.md#invariants, items 1, 2, 4, 5 and 6, on the engine's final runs: nothing is
   * left in level 0; the tree has levels below level 1; internal levels hold at most t^i nodes; LSA
   * appends (some node holds several sequences) while IAM's mixed level keeps at most k and the
   * levels below it one.
   */
  static void assertStructure(List<RunInfo> runs, String policy, Map<String, String> p) {
    TreeLayout tree = TreeLayout.of(runs);
    assertThat(tree.nodes(0)).as("flushed runs left after awaitMerges").isEmpty();
    for (RunInfo r : runs) {
      assertThat(r.level()).isGreaterThanOrEqualTo(TreeLayout.SLOTS);
    }
    int t = Integer.parseInt(p.get("fanout"));
    int n = tree.deepest();
    assertThat(n).as("tree depth").isGreaterThanOrEqualTo(2);
    long bound = 1;
    for (int i = 1; i < n; i++) {
      bound *= t;
      assertThat(tree.nodes(i).size()).as("nodes in internal level " + i)
          .isLessThanOrEqualTo((int) bound);
    }
    int most = 0;
    for (int i = 1; i <= n; i++) {
      for (TreeLayout.Node node : tree.nodes(i)) {
        most = Math.max(most, node.sequenceCount());
        if (policy.equals("iam") && p.containsKey("mixed-level")) {
          int m = Integer.parseInt(p.get("mixed-level"));
          int k = Integer.parseInt(p.get("max-sequences"));
          if (i == m) {
            assertThat(node.sequenceCount()).as("sequences in the mixed"
                + " level").isLessThanOrEqualTo(k);
          } else if (i > m) {
            assertThat(node.sequenceCount()).as("sequences in merging level " + i).isEqualTo(1);
          }
        }
      }
    }
    if (policy.equals("lsa")) {
      assertThat(most).as("most sequences in one node").isGreaterThan(1);
    }
  }

  /**
   * The memory component is flushed straight into the level-1 nodes: the engine cuts the flush at
   * the nodes' routes ({@code MergePolicy.flushCutKeys}) and each file joins its node as the
   * newest sequence by a move, so appending to level 1 rewrites nothing.
   */
  @org.junit.jupiter.api.Test
  void aFlushIsCutAtTheLevelOneNodesAndAppendedByMoves() throws Exception {
    Path dir = tmp.resolve("cut");
    StoreConfig cfg = config("lsa", params("fanout=10,node-size=1MB"))
        .withMemoryComponent(MemoryComponentConfig.of(256 * 1024, 2)); // one flush per range
    try (LsmStore store = LsmStore.open(dir, cfg)) {
      for (int[] range : new int[][] {{0, 100}, {500, 600}, {50, 550}}) {
        for (int i = range[0]; i < range[1]; i++) {
          store.put(String.format("k%06d", i).getBytes(StandardCharsets.UTF_8),
              ("flush-" + range[0]).getBytes(StandardCharsets.UTF_8));
        }
        store.flush();
        store.awaitMerges();
      }
      TreeLayout tree = TreeLayout.of(store.runs());
      assertThat(tree.nodes(0)).isEmpty();
      assertThat(tree.nodes(1)).hasSize(2);
      assertThat(tree.nodes(1)).allSatisfy(n -> assertThat(n.sequenceCount()).isEqualTo(2));
      assertThat(store.stats().bytesMerged()).as("bytes merged").isZero();
      assertThat(get(store, "k000060")).contains("flush-50");
      assertThat(get(store, "k000020")).contains("flush-0");
      assertThat(get(store, "k000580")).contains("flush-500");
    }
    assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
  }

  @org.junit.jupiter.api.Test
  void aSequentialLoadWritesEveryRecordOnceBeyondTheLog() throws Exception {
    for (String policy : List.of("lsa", "iam")) {
      Map<String, String> p = params(policy.equals("lsa") ? "fanout=3,node-size=16384"
          : "fanout=3,node-size=16384,mixed-level=1,max-sequences=2");
      Path dir = tmp.resolve("seq-" + policy);
      try (LsmStore store = LsmStore.open(dir, config(policy, p))) {
        for (int i = 0; i < 20_000; i++) {
          store.put(String.format("k%07d", i).getBytes(StandardCharsets.UTF_8),
              ("value-" + i + "-".repeat(40)).getBytes(StandardCharsets.UTF_8));
        }
        store.flush();
        store.awaitMerges();
        assertThat(store.stats().flushes()).as(policy + " flushes").isGreaterThan(20);
        assertThat(store.stats().bytesMerged()).as(policy + " bytes merged").isZero();
        assertThat(TreeLayout.of(store.runs()).deepest()).as(policy + " depth")
            .isGreaterThanOrEqualTo(3);
        assertThat(get(store, "k0012345")).isPresent();
      }
      assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
    }
  }

  /** Equal maps, or a failure naming the first few differing keys and the runs. */
  static void assertSame(Map<String, String> actual, Map<String, String> model, LsmStore store) {
    List<String> diff = new ArrayList<>();
    java.util.TreeSet<String> keys = new java.util.TreeSet<>(actual.keySet());
    keys.addAll(model.keySet());
    for (String k : keys) {
      if (!java.util.Objects.equals(actual.get(k), model.get(k))) {
        diff.add(k + ": store " + abbreviate(actual.get(k)) + " model " + abbreviate(model.get(k)));
        if (diff.size() == 8) {
          break;
        }
      }
    }
    assertThat(diff).as("differences from the model; runs " + store.runs().size()).isEmpty();
  }

  private static String abbreviate(String v) {
    return v == null ? "absent" : v.substring(0, Math.min(12, v.length()));
  }

  static Optional<String> get(LsmStore store, String key) {
    return store.get(key.getBytes(StandardCharsets.UTF_8))
        .map(b -> new String(b, StandardCharsets.UTF_8));
  }

  static TreeMap<String, String> scan(LsmStore store) {
    TreeMap<String, String> out = new TreeMap<>();
    try (ScanCursor c = store.scan(null, null)) {
      while (c.hasNext()) {
        KeyValue kv = c.next();
        out.put(new String(kv.key(), StandardCharsets.UTF_8),
            new String(kv.value(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }
}
