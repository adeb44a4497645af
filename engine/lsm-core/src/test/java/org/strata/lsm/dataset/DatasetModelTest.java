package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
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
 * A dataset with two secondary indexes against an in-memory model, for both maintenance modes and
 * one or three partitions: random upserts (many change a secondary value or drop the field),
 * deletes, gets, equality and range queries, flushes, merges and reopens, with tiny memory
 * components so seals, flushes and merges happen constantly. Every query must return exactly the
 * model's records in primary-key order, and the indexes must verify against each other.
 */
class DatasetModelTest {
  private static final String[] VALUES = {"a", "b", "c", "d", "e"};

  sealed interface Op permits Upsert, Delete, Get, Eq, Range, Flush, Merge, Reopen {}

  /** f1/f2: an index into VALUES, or -1 for a record without the field. */
  record Upsert(int key, int f1, int f2, int payload) implements Op {}

  record Delete(int key) implements Op {}

  record Get(int key) implements Op {}

  record Eq(boolean secondIndex, int value) implements Op {}

  record Range(boolean secondIndex, int from, int to) implements Op {}

  record Flush() implements Op {}

  record Merge() implements Op {}

  record Reopen() implements Op {}

  /** One random case: the operations, the maintenance mode and the partition count. */
  record Case(List<Op> ops, SecondaryMaintenance maintenance, int partitions) {}

  private static int between(SplittableRandom r, int min, int max) {
    return min + r.nextInt(max - min + 1);
  }

  static Generator<Case> cases() {
    Generator<Integer> key = r -> between(r, 0, 60);
    Generator<Integer> field = r -> between(r, -1, VALUES.length - 1);
    Generator<Integer> value = r -> between(r, 0, VALUES.length - 1);
    Generator<Op> op = new Weighted<Op>()
        .or(50, r -> new Upsert(key.generate(r), field.generate(r), field.generate(r),
            between(r, 0, 400)))
        .or(10, r -> new Delete(key.generate(r)))
        .or(8, r -> new Get(key.generate(r)))
        .or(8, r -> new Eq(r.nextBoolean(), value.generate(r)))
        .or(5, r -> new Range(r.nextBoolean(), value.generate(r), value.generate(r)))
        .or(3, r -> new Flush())
        .or(1, r -> new Merge())
        .or(1, r -> new Reopen());
    SecondaryMaintenance[] modes = SecondaryMaintenance.values();
    int[] partitions = {1, 3};
    return r -> new Case(Lists.of(r, 40, 400, op), modes[r.nextInt(modes.length)],
        partitions[r.nextInt(partitions.length)]);
  }

  static DatasetConfig config(SecondaryMaintenance m, int partitions) {
    StoreConfig store = TestStores.smallConfig(3)
        .withMergePolicy(new NamedPlugin("test-merge-all", Map.of("max", "3")))
        .withMemoryComponent(MemoryComponentConfig.of(6 * 1024, 2))
        .withIo(IoConfig.of(0, 1 << 20, 512))
        .withPageCache(PageCacheConfig.of(64 * 1024));
    return new DatasetConfig(store, List.of(new SecondaryIndexSpec("by_f1", "f1"),
        new SecondaryIndexSpec("by_f2", "f2")), m, partitions);
  }

  private static String key(int k) {
    return String.format("k%03d", k);
  }

  private static Map<String, String> fields(Upsert u) {
    Map<String, String> f = new TreeMap<>();
    if (u.f1() >= 0) {
      f.put("f1", VALUES[u.f1()]);
    }
    if (u.f2() >= 0) {
      f.put("f2", VALUES[u.f2()]);
    }
    f.put("payload", "x".repeat(u.payload()));
    return f;
  }

  @Test
  void queriesMatchTheModel() {
    PropertyRunner.forAll(cases()).tries(120)
        .shrinkWith(Lists.shrinking(Case::ops, (c, ops) -> new Case(ops, c.maintenance(),
            c.partitions()), 0))
        .check("dataset queries match the model", c -> run(c.ops(), c.maintenance(),
            c.partitions()));
  }

  private static void run(List<Op> ops, SecondaryMaintenance maintenance, int partitions)
      throws IOException {
    Path dir = Files.createTempDirectory("strata-dataset-model");
    TreeMap<String, Map<String, String>> model = new TreeMap<>();
    Dataset ds = Dataset.open(dir, config(maintenance, partitions));
    try {
      for (Op op : ops) {
        if (op instanceof Upsert u) {
          ds.upsert(key(u.key()), fields(u));
          model.put(key(u.key()), fields(u));
        } else if (op instanceof Delete d) {
          ds.delete(key(d.key()));
          model.remove(key(d.key()));
        } else if (op instanceof Get g) {
          assertThat(ds.get(key(g.key())).map(DatasetRecord::fields).orElse(null))
              .as("get %s", key(g.key())).isEqualTo(model.get(key(g.key())));
        } else if (op instanceof Eq q) {
          checkQuery(ds, model, q.secondIndex(), VALUES[q.value()], VALUES[q.value()]);
        } else if (op instanceof Range r) {
          checkQuery(ds, model, r.secondIndex(), VALUES[Math.min(r.from(), r.to())],
              VALUES[Math.max(r.from(), r.to())]);
        } else if (op instanceof Flush) {
          ds.flush();
        } else if (op instanceof Merge) {
          ds.compact();
        } else if (op instanceof Reopen) {
          ds.close();
          ds = Dataset.open(dir, null);
        }
      }
      checkAll(ds, model);
      ds.close();
      ds = Dataset.open(dir, null);
      checkAll(ds, model);
    } finally {
      ds.close();
      deleteTree(dir);
    }
  }

  private static void checkAll(Dataset ds, TreeMap<String, Map<String, String>> model) {
    for (boolean second : new boolean[] {false, true}) {
      for (String v : VALUES) {
        checkQuery(ds, model, second, v, v);
      }
      checkQuery(ds, model, second, "b", "d");
    }
    List<String> all = new ArrayList<>();
    model.forEach((k, f) -> all.add(k + "=" + f));
    List<String> scanned = new ArrayList<>();
    ds.scan(null, Integer.MAX_VALUE).forEach(r -> scanned.add(r.key() + "=" + r.fields()));
    assertThat(scanned).as("scan of every partition, merged").containsExactlyElementsOf(all);
    List<String> tail = new ArrayList<>();
    ds.scan("k030", 5).forEach(r -> tail.add(r.key() + "=" + r.fields()));
    assertThat(tail).containsExactlyElementsOf(all.stream().filter(x -> x.compareTo("k030") >= 0)
        .limit(5).toList());
    DatasetVerifier.Report report = ds.verify();
    assertThat(report.faults()).isEmpty();
    assertThat(report.records()).isEqualTo(model.size());
    if (ds.config().maintenance() == SecondaryMaintenance.EAGER) {
      assertThat(report.staleEntries().values()).allMatch(n -> n == 0);
    }
  }

  private static void checkQuery(Dataset ds, TreeMap<String, Map<String, String>> model,
      boolean secondIndex, String from, String to) {
    String field = secondIndex ? "f2" : "f1";
    List<String> expected = new ArrayList<>();
    model.forEach((k, f) -> {
      String v = f.get(field);
      if (v != null && v.compareTo(from) >= 0 && v.compareTo(to) <= 0) {
        expected.add(k + "=" + f);
      }
    });
    List<String> actual = new ArrayList<>();
    for (DatasetRecord r : ds.queryRange(secondIndex ? "by_f2" : "by_f1", from, to)) {
      actual.add(r.key() + "=" + r.fields());
    }
    assertThat(actual).as("%s in [%s, %s]", field, from, to).containsExactlyElementsOf(expected);
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }
}
