package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.PageCacheConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.testing.TestStores;
import org.strata.lsm.testing.property.Generator;
import org.strata.lsm.testing.property.Lists;
import org.strata.lsm.testing.property.PropertyRunner;
import org.strata.lsm.testing.property.Weighted;

/**
 * The engine against a {@link TreeMap} model: random puts, deletes, gets, scans, flushes, merges
 * and close/reopen, with tiny memory components and pages so that flushes, merges (including
 * multi-file outputs) and anti-matter handling happen constantly.
 */
class LsmTreeModelTest {

  sealed interface Op permits Put, Delete, Get, Scan, Flush, Merge, Reopen {}

  record Put(int key, int valueLen, int seed) implements Op {}

  record Delete(int key) implements Op {}

  record Get(int key) implements Op {}

  record Scan(int from, int to) implements Op {}

  record Flush() implements Op {}

  record Merge() implements Op {}

  record Reopen() implements Op {}

  /** One random case: the operations and the store's shape. */
  record Case(List<Op> ops, int maxComponents, int split) {}

  private static int between(SplittableRandom r, int min, int max) {
    return min + r.nextInt(max - min + 1);
  }

  static Generator<Case> cases() {
    Generator<Integer> key = r -> between(r, 0, 300);
    Generator<Integer> valueLen = new Weighted<Integer>()
        .or(8, r -> between(r, 0, 200))
        .or(1, r -> between(r, 1000, 5000));
    Generator<Op> op = new Weighted<Op>()
        .or(50, r -> new Put(key.generate(r), valueLen.generate(r), r.nextInt()))
        .or(12, r -> new Delete(key.generate(r)))
        .or(20, r -> new Get(key.generate(r)))
        .or(5, r -> new Scan(key.generate(r), key.generate(r)))
        .or(2, r -> new Flush())
        .or(1, r -> new Merge())
        .or(1, r -> new Reopen());
    int[] splits = {2048, 8192, Integer.MAX_VALUE};
    return r -> new Case(Lists.of(r, 50, 600, op), between(r, 1, 6),
        splits[r.nextInt(splits.length)]);
  }

  private static byte[] key(int k) {
    return String.format("k%05d", k).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(int len, int seed) {
    byte[] v = new byte[len];
    for (int i = 0; i < len; i++) {
      v[i] = (byte) ('a' + Math.floorMod(seed + i * 31, 26));
    }
    return v;
  }

  static StoreConfig config(int maxComponents, int splitBytes) {
    return TestStores.smallConfig(maxComponents)
        .withMergePolicy(new NamedPlugin("test-merge-all", Map.of(
            "max", Integer.toString(maxComponents),
            "target-file-size", Integer.toString(splitBytes))))
        .withMemoryComponent(MemoryComponentConfig.of(4096, 2))
        .withIo(IoConfig.of(0, 1 << 20, 512))
        .withPageCache(PageCacheConfig.of(16 * 1024));
  }

  @Test
  void engineBehavesLikeASortedMap() {
    PropertyRunner.forAll(cases()).tries(150)
        .shrinkWith(Lists.shrinking(Case::ops, (c, ops) -> new Case(ops, c.maxComponents(),
            c.split()), 0))
        .check("engine behaves like a sorted map", c -> run(c.ops(), c.maxComponents(),
            c.split()));
  }

  private static void run(List<Op> ops, int maxComponents, int split) throws IOException {
    run(ops, config(maxComponents, split));
  }

  /** Runs {@code ops} on a store with configuration {@code cfg} and on the model. */
  static void run(List<Op> ops, StoreConfig cfg) throws IOException {
    Path dir = Files.createTempDirectory("strata-model");
    TreeMap<String, byte[]> model = new TreeMap<>();
    LsmStore store = LsmStore.open(dir, cfg);
    try {
      for (Op op : ops) {
        if (op instanceof Put p) {
          byte[] v = value(p.valueLen(), p.seed());
          store.put(key(p.key()), v);
          model.put(new String(key(p.key()), StandardCharsets.UTF_8), v);
        } else if (op instanceof Delete d) {
          store.delete(key(d.key()));
          model.remove(new String(key(d.key()), StandardCharsets.UTF_8));
        } else if (op instanceof Get g) {
          byte[] expected = model.get(new String(key(g.key()), StandardCharsets.UTF_8));
          byte[] actual = store.get(key(g.key())).orElse(null);
          assertThat(actual).as("get %s", g.key()).isEqualTo(expected);
        } else if (op instanceof Scan s) {
          checkScan(store, model, Math.min(s.from(), s.to()), Math.max(s.from(), s.to()));
        } else if (op instanceof Flush) {
          store.flush();
        } else if (op instanceof Merge) {
          store.compact();
        } else if (op instanceof Reopen) {
          store.close();
          store = LsmStore.open(dir, null);
        }
      }
      checkScan(store, model, 0, 300);
      store.close();
      assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
      store = LsmStore.open(dir, null);
      checkScan(store, model, 0, 300);
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertThat(store.get(e.getKey().getBytes(StandardCharsets.UTF_8)).orElse(null))
            .isEqualTo(e.getValue());
      }
    } finally {
      store.close();
      deleteTree(dir);
    }
  }

  private static void checkScan(LsmStore store, TreeMap<String, byte[]> model, int from, int to) {
    String f = new String(key(from), StandardCharsets.UTF_8);
    String t = new String(key(to), StandardCharsets.UTF_8);
    List<String> expected = new ArrayList<>();
    model.subMap(f, true, t, true).forEach((k, v) ->
        expected.add(k + "=" + new String(v, StandardCharsets.UTF_8)));
    List<String> actual = new ArrayList<>();
    try (ScanCursor c = store.scan(key(from), key(to))) {
      while (c.hasNext()) {
        KeyValue kv = c.next();
        actual.add(new String(kv.key(), StandardCharsets.UTF_8) + "="
            + new String(kv.value(), StandardCharsets.UTF_8));
      }
    }
    assertThat(actual).as("scan %d..%d", from, to).containsExactlyElementsOf(expected);
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
