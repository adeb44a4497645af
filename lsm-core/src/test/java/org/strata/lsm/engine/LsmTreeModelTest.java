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
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.strata.lsm.KeyValue;
import org.strata.lsm.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.testing.TestStores;

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

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Integer> key = Arbitraries.integers().between(0, 300);
    Arbitrary<Op> put = Combinators.combine(key,
        Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.integers().between(0, 200)),
            Tuple.of(1, Arbitraries.integers().between(1000, 5000))),
        Arbitraries.integers()).as(Put::new);
    Arbitrary<Op> op = Arbitraries.frequencyOf(
        Tuple.of(50, put),
        Tuple.of(12, key.map(Delete::new)),
        Tuple.of(20, key.map(Get::new)),
        Tuple.of(5, Combinators.combine(key, key).as(Scan::new)),
        Tuple.of(2, Arbitraries.just(new Flush())),
        Tuple.of(1, Arbitraries.just(new Merge())),
        Tuple.of(1, Arbitraries.just(new Reopen())));
    return op.list().ofMinSize(50).ofMaxSize(600);
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

  private static StoreConfig config(int maxComponents, int splitBytes) {
    return TestStores.smallConfig(maxComponents)
        .withMergePolicy(new NamedPlugin("test-merge-all", Map.of(
            "max", Integer.toString(maxComponents),
            "target-file-size", Integer.toString(splitBytes))))
        .withMemoryComponent(4096, 2)
        .withIo(0, 1 << 20, 512)
        .withPageCacheSize(16 * 1024);
  }

  @Property(tries = 150)
  void engineBehavesLikeASortedMap(@ForAll("ops") List<Op> ops,
      @ForAll("maxComponents") int maxComponents, @ForAll("split") int split) throws IOException {
    Path dir = Files.createTempDirectory("strata-model");
    TreeMap<String, byte[]> model = new TreeMap<>();
    StoreConfig cfg = config(maxComponents, split);
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

  @Provide
  Arbitrary<Integer> maxComponents() {
    return Arbitraries.integers().between(1, 6);
  }

  @Provide
  Arbitrary<Integer> split() {
    return Arbitraries.of(2048, 8192, Integer.MAX_VALUE);
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
