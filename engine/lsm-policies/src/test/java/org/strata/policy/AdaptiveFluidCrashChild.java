package org.strata.policy;

import java.nio.file.Path;
import java.util.Map;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.wal.WriteBatch;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.spi.LevelShape;

/**
 * The child JVM of {@link AdaptiveFluidCrashTest}: writes records in synced batches to an {@code
 * adaptive-fluid} store, printing {@code acked N} after each batch and {@code design T K Z}
 * whenever the store's design has changed, until it is killed. Argument: the directory.
 */
public final class AdaptiveFluidCrashChild {
  static final int BATCH = 50;

  private AdaptiveFluidCrashChild() {}

  static StoreConfig config() {
    return StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin("adaptive-fluid", Map.of("window-ops", "3000")))
        .withMergeScheduler(new NamedPlugin("test-serial", Map.of()))
        .withMemoryComponent(MemoryComponentConfig.of(64 << 10, 2))
        .withDurability(Durability.SYNC);
  }

  public static void main(String[] args) throws Exception {
    try (LsmStore s = LsmStore.open(Path.of(args[0]), config())) {
      LevelShape shown = s.levelShape().orElseThrow();
      long id = 0;
      while (true) {
        WriteBatch b = new WriteBatch();
        for (int i = 0; i < BATCH; i++) {
          b.put(AdaptiveFluidEngineTest.key(id + i), AdaptiveFluidEngineTest.value(id + i, 0));
        }
        s.write(b);
        id += BATCH;
        System.out.println("acked " + id);
        LevelShape now = s.levelShape().orElseThrow();
        if (!now.equals(shown)) {
          shown = now;
          System.out.println("design " + now.sizeRatio() + " " + now.runsPerLevel() + " "
              + now.runsAtLargestLevel());
        }
        System.out.flush();
      }
    }
  }
}
