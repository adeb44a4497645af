package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.strata.lsm.testing.TestStores.b;
import static org.strata.lsm.testing.TestStores.s;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.StoreStats;
import org.strata.lsm.StrataException;
import org.strata.lsm.wal.WriteBatch;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.testing.TestStores;

class LsmTreeTest {
  @TempDir Path tmp;

  private static String key(int i) {
    return String.format("key%08d", i);
  }

  private static List<String> scanAll(LsmStore s, String from, String to) {
    List<String> out = new ArrayList<>();
    try (ScanCursor c = s.scan(from == null ? null : b(from), to == null ? null : b(to))) {
      while (c.hasNext()) {
        KeyValue kv = c.next();
        out.add(s(kv.key()) + "=" + s(kv.value()));
      }
    }
    return out;
  }

  @Test
  void putGetDeleteScanAcrossFlushesMergesAndReopen() {
    Path dir = tmp.resolve("store");
    TreeMap<String, String> model = new TreeMap<>();
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(3))) {
      for (int i = 0; i < 5000; i++) {
        String k = key(i % 1700);
        String v = "v" + i + "-" + "x".repeat(i % 50);
        store.put(b(k), b(v));
        model.put(k, v);
        if (i % 7 == 0) {
          store.delete(b(key(i % 1300)));
          model.remove(key(i % 1300));
        }
      }
      store.flush();
      store.awaitMerges();
      StoreStats st = store.stats();
      assertThat(st.flushes()).isGreaterThan(5);
      assertThat(st.merges()).isGreaterThan(0);
      assertThat(st.diskComponents()).isLessThanOrEqualTo(4);
      assertThat(st.writeAmplification()).isGreaterThan(1.0);
      for (int i = 0; i < 1700; i++) {
        assertThat(store.get(b(key(i))).map(TestStores::s)).isEqualTo(
            java.util.Optional.ofNullable(model.get(key(i))));
      }
      assertThat(scanAll(store, null, null)).containsExactlyElementsOf(expected(model, null, null));
      assertThat(scanAll(store, key(100), key(250)))
          .containsExactlyElementsOf(expected(model, key(100), key(250)));
    }
    try (LsmStore store = LsmStore.open(dir, null)) {
      assertThat(scanAll(store, null, null)).containsExactlyElementsOf(expected(model, null, null));
      store.compact();
      assertThat(store.stats().diskComponents()).isEqualTo(1);
      assertThat(store.stats().diskEntries()).isEqualTo(model.size());
      assertThat(scanAll(store, null, null)).containsExactlyElementsOf(expected(model, null, null));
    }
    assertThat(StoreVerifier.verify(dir).ok()).isTrue();
  }

  private static List<String> expected(TreeMap<String, String> m, String from, String to) {
    Map<String, String> sub = m;
    if (from != null) {
      sub = m.subMap(from, true, to, true);
    }
    List<String> out = new ArrayList<>();
    sub.forEach((k, v) -> out.add(k + "=" + v));
    return out;
  }

  @Test
  void unflushedWritesSurviveCrashThroughTheLog() throws Exception {
    Path dir = tmp.resolve("store");
    StoreConfig cfg =
        TestStores.smallConfig(3).withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2));
    LsmStore store = LsmStore.open(dir, cfg);
    store.put(b("a"), b("1"));
    store.put(b("b"), b("2"));
    store.delete(b("a"));
    store.write(new WriteBatch().put(b("c"), b("3")).put(b("d"), b("4")));
    store.sync();
    // Simulate a crash: copy the directory as it is now, without closing.
    Path copy = tmp.resolve("copy");
    LogImages.copyTree(dir, copy);
    store.close();
    Files.deleteIfExists(copy.resolve("LOCK"));
    try (LsmStore recovered = LsmStore.open(copy, null)) {
      assertThat(recovered.get(b("a"))).isEmpty();
      assertThat(recovered.get(b("b")).map(TestStores::s)).contains("2");
      assertThat(recovered.get(b("d")).map(TestStores::s)).contains("4");
      assertThat(recovered.stats().diskComponents()).isZero();
    }
  }

  @Test
  void logIsTruncatedAfterFlushes() {
    Path dir = tmp.resolve("store");
    try (Store store = Store.open(dir, TestStores.smallConfig(3),
        org.strata.lsm.io.StoreEnvironment.standard())) {
      for (int i = 0; i < 20000; i++) {
        store.put(b(key(i)), b("value-" + i));
      }
      store.flush();
      assertThat(store.logSegmentCount()).isLessThanOrEqualTo(2);
    }
  }

  @Test
  void badKeysAndValuesAreRejectedAndNothingIsWritten() {
    Path dir = tmp.resolve("store");
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(3))) {
      assertThatThrownBy(() -> store.put(new byte[0], b("v")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key is empty");
      assertThatThrownBy(() -> store.put(new byte[64 * 1024 + 1], b("v")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("65537 bytes");
      assertThatThrownBy(() -> store.put(b("k"), new byte[16 * 1024 * 1024 + 1]))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16 MiB");
      assertThatThrownBy(() -> store.delete(new byte[0]))
          .isInstanceOf(IllegalArgumentException.class);
      store.put(new byte[64 * 1024], new byte[16 * 1024 * 1024]); // the limits themselves pass
      store.flush();
      assertThat(store.get(new byte[64 * 1024]).orElseThrow()).hasSize(16 * 1024 * 1024);
      assertThat(store.stats().userBytes()).isEqualTo(64 * 1024 + 16 * 1024 * 1024);
    }
  }

  @Test
  void badConfigurationFailsAtOpenAndWritesNothing() {
    Path dir = tmp.resolve("never");
    assertThatThrownBy(() -> LsmStore.open(dir, StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin("no-such-policy", Map.of()))))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("merge-policy.name")
        .hasMessageContaining("no-such-policy")
        .hasMessageContaining("test-merge-all");
    assertThatThrownBy(() -> LsmStore.open(dir, TestStores.smallConfig(3)
        .withMergePolicy(new NamedPlugin("test-merge-all", Map.of("max", "zero")))))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("max").hasMessageContaining("zero");
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"io\": {\"page-sise\": \"4KB\"}}", "t"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("io.page-sise").hasMessageContaining("page-size");
    assertThat(dir).doesNotExist();
  }

  @Test
  void secondOpenOfTheSameDirectoryFails() {
    Path dir = tmp.resolve("store");
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(3))) {
      assertThatThrownBy(() -> LsmStore.open(dir, null))
          .isInstanceOf(StrataException.class).hasMessageContaining("in use");
      store.put(b("k"), b("v"));
    }
    try (LsmStore store = LsmStore.open(dir, null)) {
      assertThat(store.get(b("k"))).isPresent();
    }
  }

  @Test
  void mergeDropsAntimatterOnlyWithTheOldestRun() {
    Path dir = tmp.resolve("store");
    StoreConfig cfg = TestStores.smallConfig(100);
    try (LsmStore store = LsmStore.open(dir, cfg)) {
      store.put(b("a"), b("1"));
      store.put(b("b"), b("1"));
      store.flush();
      store.delete(b("a"));
      store.flush();
      store.compact();
      assertThat(store.stats().diskEntries()).isEqualTo(1);
      assertThat(store.get(b("a"))).isEmpty();
      assertThat(scanAll(store, null, null)).containsExactly("b=1");
    }
  }
}
