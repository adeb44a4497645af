package org.strata.policy.iam;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.config.HotKeySelector;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.RunInfo;

/**
 * TRIAD-MEM under the LSA-tree, whose flushes are cut into one file per level-1 node: a key that
 * was hot at every flush it took part in is carried into the next memory component each time and
 * so is in no disk component at all, though the flush that carried it was cut; its value is read
 * from memory. (A model test cannot see this: reads are right either way, since the carried
 * version is newer than a flushed copy would be.)
 */
class TriadMemCutFlushTest {
  @TempDir Path tmp;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Set<String> diskKeys(Path dir, LsmStore store) throws IOException {
    Set<String> keys = new HashSet<>();
    for (RunInfo run : store.runs()) {
      for (ComponentInfo c : run.components()) {
        DiskComponent dc = DiskComponent.open(dir.resolve(c.name()), 0, new PageCache(0));
        try (EntryCursor cur = dc.cursor(null, null)) {
          while (cur.next()) {
            keys.add(new String(cur.key(), StandardCharsets.UTF_8));
          }
        } finally {
          dc.release();
        }
      }
    }
    return keys;
  }

  @Test
  void aKeyHotAtEveryCutFlushIsInNoDiskComponent() throws IOException {
    Path dir = tmp.resolve("store");
    var cfg = AppendMergeTreeEngineTest.config("lsa", Map.of("fanout", "3", "node-size", "16384"))
        .withTriad(new TriadConfig(true, HotKeySelector.TOP_K, 1.0, ByteSize.ofBytes(0)));
    try (LsmStore store = LsmStore.open(dir, cfg)) {
      // Cold keys in ascending order until level 1 has at least two nodes, so flushes are cut.
      int cold = 0;
      while (cuttingFlushes(store) < 2 && cold < 200_000) { // bounded; a few thousand suffice
        store.put(b(String.format("c%07d", cold)), b("cold-" + cold));
        cold++;
      }
      assertThat(cuttingFlushes(store)).as("level-1 nodes").isGreaterThanOrEqualTo(2);
      store.awaitMerges();
      // Now a hot key written ten times between cold writes, across several more flushes.
      long relogged = store.stats().bytes().reloggedEntries();
      List<RunInfo> before = store.runs();
      String last = null;
      for (int i = 0; i < 4000; i++) {
        last = "hot-" + i;
        for (int j = 0; j < 10; j++) {
          store.put(b("hot"), b(last));
        }
        store.put(b(String.format("c%07d", cold + i * 7919 % 4000)), b("late-" + i));
      }
      store.awaitMerges();
      assertThat(store.stats().bytes().reloggedEntries()).as("the hot key was carried over")
          .isGreaterThan(relogged);
      assertThat(store.runs()).as("flushes happened while the key was hot").isNotEqualTo(before);
      assertThat(diskKeys(dir, store)).as("keys in disk components").doesNotContain("hot")
          .contains(String.format("c%07d", 0));
      assertThat(store.get(b("hot"))).hasValue(b(last));
    }
  }

  /** Number of level-1 nodes: a flush is cut into one file per node once there are two. */
  private static int cuttingFlushes(LsmStore store) {
    return TreeLayout.of(store.runs()).nodes(1).size();
  }
}
