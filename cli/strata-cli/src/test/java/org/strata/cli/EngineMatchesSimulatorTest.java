package org.strata.cli;

import org.strata.twophase.RecordGenerator;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.wal.WriteBatch;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.engine.Plugins;
import org.strata.sim.merge.MergeSimulator;

/**
 * The same policy in the engine and in the simulator: 300 equal flushes (each followed by waiting
 * for the merges it triggers, as the model's merges are instantaneous) give the same component
 * count after every flush, and write amplification within 5%.
 */
class EngineMatchesSimulatorTest {
  private static final int FLUSHES = 300;
  private static final int RECORDS_PER_FLUSH = 200;

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"constant", "binomial", "min-latency", "bigtable", "exploring"})
  void componentCountsMatchAfterEveryFlush(String policy) {
    Map<String, String> params = Map.of("num-components", "5");
    MergeSimulator sim = new MergeSimulator(Plugins.mergePolicy(new NamedPlugin(policy, params)));
    StoreConfig cfg = StoreConfig.defaults().withMergePolicy(new NamedPlugin(policy, params))
        .withMemoryComponent(MemoryComponentConfig.of(64L << 20,
            2)).withDurability(Durability.NONE);
    List<Integer> engineCounts = new ArrayList<>();
    List<Integer> simCounts = new ArrayList<>();
    double engineWa;
    try (LsmStore store = LsmStore.open(tmp.resolve(policy), cfg)) {
      long id = 0;
      for (int f = 0; f < FLUSHES; f++) {
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < RECORDS_PER_FLUSH; i++, id++) {
          batch.put(RecordGenerator.key(id).getBytes(), RecordGenerator.value(id, 1, 1000));
        }
        store.write(batch);
        store.flush();
        store.awaitMerges();
        engineCounts.add(store.stats().diskComponents());
        sim.flush(1);
        simCounts.add(sim.checkpoint().components());
      }
      engineWa = store.stats().modelWriteAmplification();
    }
    assertThat(engineCounts).isEqualTo(simCounts);
    assertThat(engineWa / sim.checkpoint().writeAmplification()).isBetween(0.95, 1.05);
  }
}
