package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.lsm.testing.TestStores.b;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.testing.TestStores;

/**
 * The space and backlog figures of {@link StoreStats}: disk bytes are the components' file bytes,
 * and pending merge bytes are the unread input bytes of merges scheduled but not done.
 */
class StoreStatsBacklogTest {
  @TempDir Path dir;

  @Test
  void aScheduledMergeThatHasNotRunCountsAllItsInputBytesAsPending() throws Exception {
    // test-parked accepts merges and never runs them: the merge stays scheduled, not done.
    StoreConfig cfg = TestStores.smallConfig(1)
        .withMergeScheduler(new NamedPlugin("test-parked", Map.of()));
    try (LsmStore store = LsmStore.open(dir, cfg)) {
      StoreStats empty = store.stats();
      assertThat(empty.diskBytes()).isZero();
      assertThat(empty.pendingMergeBytes()).isZero();
      assertThat(empty.stalledNow()).isFalse();
      for (int flush = 0; flush < 2; flush++) {
        for (int i = 0; i < 200; i++) {
          store.put(b("k" + flush + "-" + i), new byte[100]);
        }
        store.flush();
      }
      StoreStats s = store.stats();
      long files = 0;
      long merging = 0;
      for (RunInfo r : store.runs()) {
        for (ComponentInfo c : r.components()) {
          files += Files.size(dir.resolve(c.name()));
          if (r.merging()) {
            merging += c.sizeBytes();
          }
        }
      }
      assertThat(s.diskComponents()).isEqualTo(2);
      assertThat(s.diskBytes()).isEqualTo(files).isPositive();
      // test-merge-all with max 1 asked to merge both runs once the second was flushed.
      assertThat(merging).isEqualTo(files);
      assertThat(s.pendingMergeBytes()).isEqualTo(merging);
    }
  }

  @Test
  void withNoMergeScheduledNothingIsPending() throws Exception {
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(100))) {
      for (int i = 0; i < 300; i++) {
        store.put(b("k" + i), new byte[100]);
      }
      store.flush();
      StoreStats s = store.stats();
      assertThat(s.diskComponents()).isEqualTo(1);
      assertThat(s.diskBytes()).isPositive();
      assertThat(s.pendingMergeBytes()).isZero();
    }
  }
}
