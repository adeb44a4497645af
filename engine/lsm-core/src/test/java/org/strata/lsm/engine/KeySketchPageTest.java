package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.lsm.testing.TestStores.b;
import static org.strata.lsm.testing.TestStores.s;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.testing.TestStores;

/**
 * A component carries a key sketch page only when its store's merge policy reads sketches (its
 * factory declares {@code KEY_SKETCHES}, as {@code triad-disk} does): other stores save the page
 * (4 KB) in every component. A store whose policy changes keeps working with both kinds of file.
 */
class KeySketchPageTest {
  @TempDir Path tmp;

  private static StoreConfig config(String policy) {
    return TestStores.smallConfig(100).withMergePolicy(new NamedPlugin(policy, Map.of("max",
        "100")));
  }

  /** Sketch page lengths of the store's component files, in file order. */
  private static List<Integer> sketchLengths(Path dir) throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.toString().endsWith(".cmp")).sorted().toList();
    }
    List<Integer> out = new ArrayList<>();
    for (Path p : files) {
      DiskComponent c = DiskComponent.open(p, 0, new PageCache(0));
      try {
        out.add(c.meta().sketchLength());
        assertThat(c.keySketch() == null).as("sketch object of %s", p)
            .isEqualTo(c.meta().sketchLength() == 0);
        if (c.keySketch() != null) {
          assertThat(c.keySketch().keysAdded()).isEqualTo(c.meta().entryCount());
        }
      } finally {
        c.release();
      }
    }
    return out;
  }

  private static void flushKeys(LsmStore store, int from, int to) throws Exception {
    for (int i = from; i < to; i++) {
      store.put(b(String.format("k%06d", i)), b("v" + i));
    }
    store.flush();
  }

  @Test
  void onlyAPolicyThatReadsSketchesGetsThem() throws Exception {
    assertThat(Plugins.readsKeySketches(new NamedPlugin("test-merge-all", Map.of()))).isFalse();
    assertThat(Plugins.readsKeySketches(new NamedPlugin("test-merge-all-sketched", Map.of())))
        .isTrue();
    assertThat(Plugins.readsKeySketches(new NamedPlugin("no-such-policy", Map.of())))
        .as("an unknown name keeps the sketches").isTrue();

    Path plain = tmp.resolve("plain");
    Path sketched = tmp.resolve("sketched");
    try (LsmStore a = LsmStore.open(plain, config("test-merge-all"));
        LsmStore c = LsmStore.open(sketched, config("test-merge-all-sketched"))) {
      flushKeys(a, 0, 500);
      flushKeys(c, 0, 500);
    }
    assertThat(sketchLengths(plain)).containsExactly(0);
    assertThat(sketchLengths(sketched)).hasSize(1).allMatch(n -> n > 4096);
    long plainBytes = Files.size(only(plain));
    long sketchedBytes = Files.size(only(sketched));
    assertThat(sketchedBytes - plainBytes).as("the same entries, one sketch page more")
        .isEqualTo((long) sketchLengths(sketched).get(0));
  }

  @Test
  void aStoreReopenedUnderASketchingPolicyReadsBothKindsOfFile() throws Exception {
    Path dir = tmp.resolve("store");
    try (LsmStore a = LsmStore.open(dir, config("test-merge-all"))) {
      flushKeys(a, 0, 300);
    }
    try (LsmStore a = LsmStore.open(dir, config("test-merge-all-sketched"))) {
      flushKeys(a, 300, 600);
      assertThat(sketchLengths(dir)).hasSize(2);
      assertThat(sketchLengths(dir).get(0)).isZero();
      assertThat(sketchLengths(dir).get(1)).isPositive();
      for (int i = 0; i < 600; i += 37) {
        assertThat(s(a.get(b(String.format("k%06d", i))).orElseThrow())).isEqualTo("v" + i);
      }
      a.compact();
      assertThat(sketchLengths(dir)).as("the merge of both writes a sketched file")
          .hasSize(1).allMatch(n -> n > 0);
      for (int i = 0; i < 600; i += 37) {
        assertThat(s(a.get(b(String.format("k%06d", i))).orElseThrow())).isEqualTo("v" + i);
      }
    }
  }

  private static Path only(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> files = s.filter(p -> p.toString().endsWith(".cmp")).toList();
      assertThat(files).hasSize(1);
      return files.get(0);
    }
  }
}
