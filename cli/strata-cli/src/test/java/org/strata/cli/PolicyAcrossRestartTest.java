package org.strata.cli;

import org.strata.twophase.RecordGenerator;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.wal.WriteBatch;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.spi.RunInfo;

/**
 * A level policy's decisions on the engine do not depend on a restart: the same writes and flushes,
 * once with the store closed and opened again in the middle and once without, leave the same runs
 * (level and size, newest first) after every flush. The flushes after the restart are half the size
 * of those before it, so a policy that sized its levels by the flushes it has seen since the
 * restart (instead of the largest flush of the index, the M of
 * docs/papers/dostoevsky.md#fluid-merge-rules) would fill them twice as early and merge
 * differently.
 */
class PolicyAcrossRestartTest {
  private static final int FLUSHES_AFTER = 20;
  private static final int RECORDS_BEFORE = 400;
  private static final int RECORDS_AFTER = 200;

  @TempDir Path tmp;

  /**
   * @param flushesBefore flushes before the restart, chosen so that none of them is still a
   *     flushed run at the restart (the restarted policy cannot see M among its runs)
   */
  @ParameterizedTest(name = "{0} restarted after {1} flushes")
  @CsvSource({"tiering,12", "lazy-leveling,10", "leveling,12"})
  void runsAfterEveryFlushEqualAnUninterruptedRun(String policy, int flushesBefore) {
    StoreConfig cfg = StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin(policy, Map.of("size-ratio", "3")))
        .withMemoryComponent(MemoryComponentConfig.of(64L << 20, 2))
        .withDurability(Durability.NONE);
    List<List<String>> restarted = run(tmp.resolve("restarted"), cfg, flushesBefore, true);
    List<List<String>> uninterrupted = run(tmp.resolve("uninterrupted"), cfg, flushesBefore, false);
    assertThat(restarted).as("runs (level:bytes) after every flush, restarted vs uninterrupted")
        .isEqualTo(uninterrupted);
    // The check can fail: the smaller flushes after the restart do change what the policy merges.
    assertThat(uninterrupted.get(uninterrupted.size() - 1).stream()
        .anyMatch(r -> !r.startsWith("0:"))).as("some run left level 0").isTrue();
  }

  /** The runs after every flush, with a close and reopen between the two phases if asked. */
  private static List<List<String>> run(Path dir, StoreConfig cfg, int flushesBefore,
      boolean restart) {
    List<List<String>> out = new ArrayList<>();
    long id = 0;
    LsmStore store = LsmStore.open(dir, cfg);
    try {
      for (int f = 0; f < flushesBefore + FLUSHES_AFTER; f++) {
        if (f == flushesBefore && restart) {
          store.close();
          store = LsmStore.open(dir, cfg);
        }
        int records = f < flushesBefore ? RECORDS_BEFORE : RECORDS_AFTER;
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < records; i++, id++) {
          batch.put(RecordGenerator.key(id).getBytes(), RecordGenerator.value(id, 1, 100));
        }
        store.write(batch);
        store.flush();
        store.awaitMerges();
        List<String> runs = new ArrayList<>();
        for (RunInfo r : store.runs()) {
          runs.add(r.level() + ":" + r.sizeBytes());
        }
        out.add(runs);
      }
    } finally {
      store.close();
    }
    return out;
  }
}
