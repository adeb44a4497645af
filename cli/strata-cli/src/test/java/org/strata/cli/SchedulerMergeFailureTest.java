package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.engine.StoreVerifier;
import org.strata.lsm.io.Clock;
import org.strata.lsm.testing.FaultInjectingFileIo;
import org.strata.lsm.testing.FileOp;

/**
 * A scheduler that loses a merge to an I/O error reports it (merge log), leaves the inputs in place
 * and goes on scheduling: the next merge succeeds.
 */
class SchedulerMergeFailureTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"single-thread", "fair", "greedy", "leveldb-score"})
  void failedMergeKeepsItsInputsAndLaterMergesRun(String scheduler) throws Exception {
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    StoreConfig cfg = StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin("no-merge", Map.of()))
        .withMergeScheduler(new NamedPlugin(scheduler, Map.of()))
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2)).withDurability(Durability.NONE);
    Path dir = tmp.resolve(scheduler);
    try (LsmStore store = LsmStore.open(dir, cfg, new StoreEnvironment(Clock.system(), io))) {
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 300; i++) {
          store.put(("k" + i).getBytes(), ("v" + round + "-" + i).getBytes());
        }
        store.flush();
      }
      io.failNext(FileOp.WRITE, ".cmp.tmp", 1, "injected");
      store.compact(); // no-merge honours a full-merge request
      assertThat(store.stats().diskComponents()).isEqualTo(3);
      assertThat(store.stats().mergeLog()).anySatisfy(r ->
          assertThat(r.outcome()).startsWith("failed").contains("injected"));
      store.compact();
      assertThat(store.stats().diskComponents()).isEqualTo(1);
      assertThat(store.get("k7".getBytes()).map(String::new)).contains("v2-7");
    }
    assertThat(StoreVerifier.verify(dir).ok()).isTrue();
  }
}
