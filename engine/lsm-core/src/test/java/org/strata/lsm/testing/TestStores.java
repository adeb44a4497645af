package org.strata.lsm.testing;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.strata.lsm.Durability;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.PageCacheConfig;
import org.strata.lsm.config.StoreConfig;

/** Configurations and helpers shared by engine tests. */
public final class TestStores {
  private TestStores() {}

  /** Small memory components and pages so flushes and merges happen often. */
  public static StoreConfig smallConfig(int maxComponents) {
    return StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin("test-merge-all",
            Map.of("max", Integer.toString(maxComponents))))
        .withMergeScheduler(new NamedPlugin("test-serial", Map.of()))
        .withMemoryComponent(MemoryComponentConfig.of(64 * 1024, 2))
        .withIo(IoConfig.of(0, 1 << 20, 1024))
        .withPageCache(PageCacheConfig.of(256 * 1024))
        .withDurability(Durability.NONE);
  }

  public static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static String s(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
