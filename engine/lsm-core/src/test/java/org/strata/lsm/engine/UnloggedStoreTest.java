package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.strata.lsm.testing.TestStores.b;
import static org.strata.lsm.testing.TestStores.s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.testing.PowerLossFileIo;
import org.strata.lsm.testing.TestStores;

/**
 * Durability {@code unlogged} (docs/configuration.md): writes are not logged, a flush makes them
 * durable, and a crash keeps every write up to some point in write order: everything before the
 * last {@code sync()} (which flushes) and after it a prefix, never a later write without an earlier
 * one. Sequence numbers go on above everything on disk after the crash, so a new write of a key
 * wins over the flushed one, in memory, in a flushed component and after a merge.
 */
class UnloggedStoreTest {
  private static final String PAD = "x".repeat(100);

  @TempDir Path tmp;

  private static StoreConfig config() {
    return TestStores.smallConfig(100).withDurability(Durability.UNLOGGED);
  }

  private static String key(int i) {
    return String.format("key%05d", i);
  }

  @Test
  void writesReachNoLogAndCloseKeepsThem() throws IOException {
    Path dir = tmp.resolve("store");
    try (LsmStore store = LsmStore.open(dir, config())) {
      for (int i = 0; i < 2_000; i++) {
        store.put(b(key(i)), b("v-" + i + PAD));
      }
    }
    long logBytes;
    try (Stream<Path> files = Files.list(dir.resolve("wal"))) {
      logBytes = files.mapToLong(f -> f.toFile().length()).sum();
    }
    assertThat(logBytes).as("bytes in the log directory after 2,000 writes of 110 bytes")
        .isLessThan(8 * 1024);
    try (LsmStore store = LsmStore.open(dir, null)) {
      assertThat(store.config().log().durability()).isEqualTo(Durability.UNLOGGED);
      for (int i = 0; i < 2_000; i++) {
        assertThat(store.get(b(key(i))).map(v -> s(v))).as(key(i)).hasValue("v-" + i + PAD);
      }
    }
  }

  @Test
  void aPowerLossKeepsEverythingBeforeTheSyncAndAPrefixAfterIt() throws IOException {
    Path dir = tmp.resolve("store");
    Path image = tmp.resolve("image");
    Path atSync = tmp.resolve("image-at-sync");
    PowerLossFileIo io = new PowerLossFileIo();
    StoreEnvironment env = new StoreEnvironment(Clock.system(), io);
    int before = 1_000;
    int after = 2_000;
    try (LsmStore store = LsmStore.open(dir, config(), env)) {
      for (int i = 0; i < before; i++) {
        store.put(b(key(i)), b("v1-" + i + PAD));
      }
      store.sync();
      io.image(dir, atSync);
      // After the sync each key is written at most once: even j overwrites key(j / 2), odd j
      // writes a new key. Several memory components fill and seal meanwhile (64 KB each).
      for (int j = 0; j < after; j++) {
        store.put(b(afterKey(j)), b("v2-" + j + PAD));
      }
      ((Store) store).awaitSealedFlushed(); // what was sealed is on disk; the active is not
      io.image(dir, image);
    }
    try (LsmStore store = LsmStore.open(atSync, null)) {
      for (int i = 0; i < before; i++) {
        assertThat(store.get(b(key(i))).map(v -> s(v))).as("%s, at the sync", key(i))
            .hasValue("v1-" + i + PAD);
      }
    }
    try (LsmStore store = LsmStore.open(image, null)) {
      for (int i = 0; i < before; i++) {
        Optional<byte[]> v = store.get(b(key(i)));
        assertThat(v).as("%s, written before the sync", key(i)).isPresent();
        String value = s(v.get());
        if (!value.equals("v1-" + i + PAD)) {
          assertThat(value).as("%s: its value before the sync, or its one later write", key(i))
              .isEqualTo("v2-" + (2 * i) + PAD);
        }
      }
      int kept = 0;
      for (int j = 0; j < after; j++) {
        String written = "v2-" + j + PAD;
        boolean survived = store.get(b(afterKey(j))).map(v -> s(v)).filter(written::equals)
            .isPresent();
        if (survived) {
          assertThat(kept).as("write %d survived, so every write before it did", j).isEqualTo(j);
          kept++;
        }
      }
      assertThat(kept).as("writes after the sync in the flushed memory components").isPositive()
          .isLessThan(after);
      // New writes take numbers above everything on disk: they win, through a flush and a merge.
      store.put(b(key(0)), b("v3"));
      store.put(b(afterKey(after - 1)), b("v3"));
      assertThat(store.get(b(key(0))).map(v -> s(v))).hasValue("v3");
      store.flush();
      store.compact();
      assertThat(store.runs()).hasSize(1);
      assertThat(store.get(b(key(0))).map(v -> s(v))).hasValue("v3");
    }
    try (LsmStore store = LsmStore.open(image, null)) {
      assertThat(store.get(b(key(0))).map(v -> s(v))).hasValue("v3");
      assertThat(store.get(b(afterKey(after - 1))).map(v -> s(v))).hasValue("v3");
    }
  }

  private static String afterKey(int j) {
    return j % 2 == 0 ? key(j / 2) : "new" + String.format("%05d", j);
  }

  @Test
  void triadAndDatasetsRefuseIt() {
    assertThatThrownBy(() -> config().withTriad(TriadConfig.memOn()))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("log.durability").hasMessageContaining("'unlogged'")
        .hasMessageContaining("TRIAD-MEM");
    assertThatThrownBy(() -> config().withTriad(TriadConfig.logOn()))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("log.durability").hasMessageContaining("TRIAD-LOG");
    assertThatThrownBy(() -> new DatasetConfig(config(), List.of(), null, 1))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("log.durability").hasMessageContaining("in a dataset");
    // A tree group opened directly, without a dataset configuration, refuses it too, before it
    // creates anything.
    Path group = tmp.resolve("group");
    assertThatThrownBy(() -> TreeGroup.open(group, List.of(new TreeGroup.Member("a",
        TestStores.smallConfig(100))), 1 << 20, config(), new IoThrottle(0, Clock.system()),
        StoreEnvironment.standard()))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("log.durability").hasMessageContaining("in a dataset");
    assertThat(group).doesNotExist();
    assertThatThrownBy(() -> Durability.parse("log.durability", "off"))
        .hasMessageContaining("sync, group, none, unlogged");
    assertThat(Durability.parse("log.durability", "unlogged")).isEqualTo(Durability.UNLOGGED);
  }
}
