package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.lsm.testing.TestStores.b;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.testing.TestStores;

/**
 * {@code memory-component.live-size}: the active memory component is full when its keys' newest
 * versions reach the live size (a memtable absorbing updates in place) or when all its versions
 * reach {@code size} (a commit log), whichever comes first.
 */
class LiveSizeTest {
  @TempDir Path tmp;

  private static StoreConfig config(Long liveSize) {
    MemoryComponentConfig mc = MemoryComponentConfig.of(256 * 1024, 2);
    return TestStores.smallConfig(1000)
        .withMemoryComponent(liveSize == null ? mc : mc.withLiveSize(liveSize));
  }

  private static byte[] value(int i) {
    byte[] v = new byte[1000];
    Arrays.fill(v, (byte) i);
    return v;
  }

  /** Distinct keys: every write adds a newest version, so the live size fills first. */
  @Test
  void distinctKeysFillTheLiveSizeFirst() {
    long withLive;
    long without;
    try (Store s = Store.open(tmp.resolve("live"), config(32L * 1024),
        StoreEnvironment.standard())) {
      for (int i = 0; i < 200; i++) {
        s.put(b(String.format("key%05d", i)), value(i));
      }
      s.awaitSealedFlushed();
      withLive = s.stats().flushes();
    }
    try (Store s = Store.open(tmp.resolve("plain"), config(null),
        StoreEnvironment.standard())) {
      for (int i = 0; i < 200; i++) {
        s.put(b(String.format("key%05d", i)), value(i));
      }
      s.awaitSealedFlushed();
      without = s.stats().flushes();
    }
    // 200 KB of newest versions: about six 32 KB memtables, and not one full 256 KB component
    assertThat(withLive).isBetween(5L, 7L);
    assertThat(without).isZero();
  }

  /** One key written over and over: one newest version, so only {@code size} fills. */
  @Test
  void overwritesFillOnlyTheSize() {
    try (Store s = Store.open(tmp.resolve("hot"), config(32L * 1024),
        StoreEnvironment.standard())) {
      for (int i = 0; i < 600; i++) {
        s.put(b("hot"), value(i));
      }
      s.awaitSealedFlushed();
      // 600 versions of about 1 KB: two full 256 KB components, however small the live bytes
      assertThat(s.stats().flushes()).isEqualTo(2);
      assertThat(s.get(b("hot"))).hasValue(value(599));
    }
  }
}
