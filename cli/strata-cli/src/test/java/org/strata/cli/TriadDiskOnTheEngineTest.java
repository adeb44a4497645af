package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.wal.WriteBatch;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.spi.RunInfo;

/**
 * TRIAD-DISK on the engine sees real sketch estimates ({@code MergeContext.distinctKeys}): level-0
 * files with disjoint keys are left unmerged up to {@code max-l0-files}, files holding the same
 * keys are merged as soon as level 0 reaches {@code l0-trigger}.
 */
class TriadDiskOnTheEngineTest {
  private static final int KEYS_PER_FLUSH = 2000;

  @TempDir Path tmp;

  private static LsmStore open(Path dir) {
    return LsmStore.open(dir, StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin("triad-disk", Map.of("level1-size", "1GB")))
        .withMemoryComponent(MemoryComponentConfig.of(64L << 20,
            2)).withDurability(Durability.NONE));
  }

  /** Writes one flush of keys {@code first .. first + KEYS_PER_FLUSH - 1} and its merges. */
  private static void flush(LsmStore store, int first) {
    WriteBatch batch = new WriteBatch();
    for (int i = first; i < first + KEYS_PER_FLUSH; i++) {
      batch.put(String.format("key%08d", i).getBytes(StandardCharsets.UTF_8),
          "value".getBytes(StandardCharsets.UTF_8));
    }
    store.write(batch);
    store.flush();
    store.awaitMerges();
  }

  private static long levelZeroRuns(LsmStore store) {
    return store.runs().stream().filter(r -> r.level() == 0).count();
  }

  @Test
  void disjointLevelZeroFilesWaitUntilTheFileCap() {
    try (LsmStore store = open(tmp.resolve("disjoint"))) {
      for (int f = 0; f < 6; f++) {
        flush(store, f * KEYS_PER_FLUSH);
      }
      assertThat(levelZeroRuns(store)).as("6 disjoint files: overlap ~0, deferred").isEqualTo(6);
      assertThat(store.stats().merges()).isZero();
      flush(store, 6 * KEYS_PER_FLUSH);
      assertThat(levelZeroRuns(store)).as("7 > max-l0-files: merged").isZero();
      assertThat(store.runs()).extracting(RunInfo::level).containsExactly(1);
      assertThat(store.stats().mergeLog()).as("the merge log counts the level-0 files it took")
          .extracting(MergeRecord::levelZeroInputs).containsExactly(7);
    }
  }

  @Test
  void overlappingLevelZeroFilesMergeAtTheTrigger() {
    try (LsmStore store = open(tmp.resolve("overlapping"))) {
      for (int f = 0; f < 3; f++) {
        flush(store, 0);
      }
      assertThat(levelZeroRuns(store)).isEqualTo(3);
      flush(store, 0);
      assertThat(levelZeroRuns(store)).as("4 copies of the same keys: overlap 0.75").isZero();
      assertThat(store.stats().merges()).isEqualTo(1);
      assertThat(store.stats().mergeLog()).extracting(MergeRecord::levelZeroInputs)
          .containsExactly(4);
    }
  }
}
