package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.strata.lsm.testing.TestStores.b;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.testing.TestStores;

/** The shared log, memory budget and throttle of a {@link TreeGroup}. */
class TreeGroupTest {
  @TempDir Path tmp;

  private static final StoreConfig CONFIG = TestStores.smallConfig(100)
      .withDurability(Durability.SYNC);

  private static TreeGroup open(Path dir, long budget) {
    return TreeGroup.open(dir, List.of(new TreeGroup.Member("a", CONFIG),
        new TreeGroup.Member("b", CONFIG)), budget, CONFIG, new IoThrottle(0, Clock.system()),
        StoreEnvironment.standard());
  }

  private static TreeGroup.Op put(int tree, String k, String v) {
    return new TreeGroup.Op(tree, b(k), b(v));
  }

  /** Copies the directory of a quiescent, synced group: what a crash at this moment leaves. */
  private static Path crashImage(Path dir, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path target = to.resolve(dir.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  @Test
  void oneWriteIsOneLogRecordReplayedIntoEveryTreeAfterACrash() throws Exception {
    Path dir = tmp.resolve("g");
    try (TreeGroup g = open(dir, 1 << 20)) {
      g.write(List.of(put(0, "k1", "record"), put(1, "v1k1", "")));
      g.sync();
      Path image = crashImage(dir, tmp.resolve("image"));
      try (TreeGroup r = open(image, 1 << 20)) {
        assertThat(r.tree(0).get(b("k1"))).hasValue(b("record"));
        assertThat(r.tree(1).get(b("v1k1"))).hasValue(b(""));
      }
    }
  }

  /**
   * Between {@link TreeGroup#recover} and {@link TreeGroup#start()} the group has replayed its
   * log but changed nothing: a leftover of a crash is still there, the log has no new segment,
   * and writes are refused naming start(); start() deletes the leftover and opens the log.
   */
  @Test
  void aRecoveredGroupChangesNothingUntilItStarts() throws Exception {
    Path dir = tmp.resolve("g");
    try (TreeGroup g = open(dir, 1 << 20)) {
      g.write(List.of(put(0, "k1", "record"), put(1, "v1k1", "")));
      g.flush();
      g.write(List.of(put(0, "k2", "logged only")));
      g.sync();
      crashImage(dir, tmp.resolve("image"));
    }
    Path image = tmp.resolve("image");
    Path leftover = image.resolve("a").resolve(ComponentFiles.fileName(40));
    Files.write(leftover, Files.readAllBytes(image.resolve("a").resolve(
        ComponentFiles.fileName(1))));
    Map<String, String> before = LogImages.snapshot(image);
    TreeGroup r = TreeGroup.recover(image, List.of(new TreeGroup.Member("a", CONFIG),
        new TreeGroup.Member("b", CONFIG)), 1 << 20, CONFIG, new IoThrottle(0, Clock.system()),
        StoreEnvironment.standard(), null);
    try {
      assertThat(LogImages.snapshot(image)).isEqualTo(before);
      assertThat(r.tree(0).get(b("k2"))).hasValue(b("logged only"));
      assertThatThrownBy(() -> r.write(List.of(put(0, "k3", "v"))))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("start()");
      r.start();
      assertThat(leftover).doesNotExist();
      assertThatThrownBy(r::start).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("started already");
      r.write(List.of(put(0, "k3", "v")));
      r.flush();
      assertThat(image.resolve("a").resolve(ComponentFiles.fileName(41))).exists();
    } finally {
      r.close();
    }
  }

  @Test
  void sequenceNumbersStayAboveEveryTreesFlushedNumberAfterReopen() throws Exception {
    Path dir = tmp.resolve("g");
    try (TreeGroup g = open(dir, 1 << 20)) {
      for (int i = 0; i < 100; i++) {
        g.write(List.of(put(0, "k" + i, "v")));
      }
      g.flush(); // tree a has flushed LSN 100, tree b nothing
    }
    try (TreeGroup g = open(dir, 1 << 20)) {
      g.write(List.of(put(0, "late", "v2")));
      g.sync();
      // A reused sequence number would be at or below tree a's flushed LSN and skipped on replay.
      try (TreeGroup r = open(crashImage(dir, tmp.resolve("image")), 1 << 20)) {
        assertThat(r.tree(0).get(b("late"))).hasValue(b("v2"));
        assertThat(r.tree(0).get(b("k99"))).hasValue(b("v"));
      }
    }
  }

  @Test
  void sealsAllTreesTogetherAndATreeWithoutWritesDoesNotPinTheLog() throws Exception {
    Path dir = tmp.resolve("g");
    try (TreeGroup g = open(dir, 8 * 1024)) {
      for (int i = 0; i < 3000; i++) {
        g.write(List.of(put(0, String.format("k%06d", i), "x".repeat(50))));
        if (i % 1000 == 999) {
          g.write(List.of(put(0, "p" + i, "x"), put(1, "s" + i, "")));
        }
      }
      g.flush();
      assertThat(g.tree(0).stats().flushes()).isGreaterThan(20);
      // Tree b got three writes; it flushed only when it had data, yet the log was truncated.
      assertThat(g.tree(1).stats().flushes()).isBetween(1L, 3L);
      assertThat(g.logSegmentCount()).isLessThanOrEqualTo(2);
      assertThat(g.tree(0).throttle()).isSameAs(g.tree(1).throttle()).isSameAs(g.throttle());
    }
  }

  @Test
  void aFlushWithNothingToSealDoesNotRollTheLog() {
    try (TreeGroup g = open(tmp.resolve("g"), 1 << 20)) {
      g.write(List.of(put(0, "k", "v")));
      g.flush();
      int segments = g.logSegmentCount();
      long flushes = g.tree(0).stats().flushes();
      g.flush(); // every active memory component is empty: nothing to seal, no new segment
      g.flush();
      assertThat(g.logSegmentCount()).isEqualTo(segments);
      assertThat(g.tree(0).stats().flushes()).isEqualTo(flushes);
      g.write(List.of(put(1, "s", "")));
      g.flush(); // something to seal: the log rolls again
      assertThat(g.tree(1).stats().flushes()).isEqualTo(1);
    }
  }

  @Test
  void treesTakeWritesOnlyThroughTheirGroup() {
    // A tree has no write method of its own: a store writes through its group of one, a
    // partition's indexes through theirs, so no index can be written past its dataset.
    assertThat(java.util.Arrays.stream(LsmTree.class.getMethods())
        .map(java.lang.reflect.Method::getName))
        .doesNotContain("put", "delete", "write", "sync");
    try (TreeGroup g = open(tmp.resolve("g"), 1 << 20)) {
      g.write(List.of(new TreeGroup.Op(1, b("k"), b("v"))));
      assertThat(g.tree(1).get(b("k"))).isPresent();
    }
  }

  /**
   * The options that need a tree's own log are refused for a tree of a group, naming the key, and
   * the refused index's directory is not left behind. (The index opened before it, "a", keeps the
   * new directory and lock file its open created: a group's refused open does not yet remove what
   * its earlier members created.)
   */
  @Test
  void anIndexOfAPartitionRefusesTheOptionsThatNeedItsOwnLog() {
    Map<String, StoreConfig> refused = Map.of(
        "triad.mem", CONFIG.withTriad(org.strata.lsm.config.TriadConfig.memOn()),
        "triad.log", CONFIG.withTriad(org.strata.lsm.config.TriadConfig.logOn()),
        "memory-component.live-size",
        CONFIG.withMemoryComponent(CONFIG.memoryComponent().withLiveSize(1 << 16)));
    for (Map.Entry<String, StoreConfig> e : refused.entrySet()) {
      Path dir = tmp.resolve(e.getKey());
      assertThatThrownBy(() -> TreeGroup.open(dir, List.of(new TreeGroup.Member("a", CONFIG),
          new TreeGroup.Member("b", e.getValue())), 1 << 20, CONFIG,
          new IoThrottle(0, Clock.system()), StoreEnvironment.standard()))
          .isInstanceOf(org.strata.lsm.InvalidConfigurationException.class)
          .hasMessageContaining(e.getKey())
          .hasMessageContaining("index of a dataset");
      assertThat(Files.exists(dir.resolve("b")))
          .as("the refused index's directory is removed (%s)", e.getKey()).isFalse();
    }
  }
}
