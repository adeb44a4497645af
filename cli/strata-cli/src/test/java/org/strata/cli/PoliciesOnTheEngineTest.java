package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.strata.lsm.Durability;
import org.strata.lsm.KeyValue;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.engine.StoreVerifier;

/**
 * Every policy runs unchanged on the real engine: random upserts and deletes with tiny memory
 * components, so flushes and merges (concurrent with writes) happen constantly; the store must end
 * equal to a TreeMap model and pass verify.
 */
class PoliciesOnTheEngineTest {
  @TempDir Path tmp;

  @ParameterizedTest(name = "{0} {1} {2}")
  @CsvSource(delimiter = ';', value = {
      "constant; num-components=3; ",
      "bigtable; num-components=4; ",
      "binomial; num-components=4; ",
      "min-latency; num-components=4; ",
      "exploring; num-components=4; ",
      "size-tiered; max-component-count=20; ",
      "prefix; max-mergable-component-size=262144,max-tolerance-component-count=4; ",
      "leveling; size-ratio=4; ",
      "tiering; size-ratio=3; ",
      "leveling; size-ratio=3,dynamic-level-size=true; ",
      "lazy-leveling; size-ratio=4; ",
      "fluid; size-ratio=5,K=2,Z=2; ",
      "adaptive-fluid; window-ops=500,margin=0; ",
      "partitioned-leveling; file-size=8192,level1-size=65536,size-ratio=4; ",
      "partitioned-leveling;"
          + " file-size=8192,size-ratio=3,selection=choose-best,merge-exactly-l0-trigger=true; ",
      "triad-disk; file-size=8192,level1-size=65536,size-ratio=4; ",
      "no-merge; ; ",
      "tiering; size-ratio=3; fair",
      "leveling; size-ratio=3; greedy",
      "size-tiered; max-component-count=20; greedy",
      "binomial; num-components=4; fair",
      "partitioned-leveling; file-size=8192,level1-size=65536,size-ratio=4; leveldb-score"})
  void storeMatchesTheModel(String policy, String params, String scheduler) throws Exception {
    Map<String, String> p = new java.util.HashMap<>();
    if (params != null) {
      for (String kv : params.split(",")) {
        String[] parts = kv.split("=");
        p.put(parts[0], parts[1]);
      }
    }
    StoreConfig cfg = StoreConfig.defaults().withMergePolicy(new NamedPlugin(policy, p))
        .withMergeScheduler(new NamedPlugin(scheduler == null ? "single-thread" : scheduler,
            Map.of()))
        .withMemoryComponent(MemoryComponentConfig.of(16 * 1024, 2)).withDurability(Durability.NONE)
        .withIo(IoConfig.of(0, 1 << 20, 1024));
    Path dir = tmp.resolve(policy + "-" + scheduler);
    TreeMap<String, String> model = new TreeMap<>();
    Random rnd = new Random(policy.hashCode());
    try (LsmStore store = LsmStore.open(dir, cfg)) {
      for (int i = 0; i < 12_000; i++) {
        String key = String.format("k%05d", rnd.nextInt(3000));
        if (rnd.nextInt(10) == 0) {
          store.delete(key.getBytes(StandardCharsets.UTF_8));
          model.remove(key);
        } else {
          String value = "v" + i + "-".repeat(rnd.nextInt(80));
          store.put(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
          model.put(key, value);
        }
      }
      store.flush();
      store.awaitMerges();
      if (!policy.equals("no-merge")) {
        assertThat(store.stats().merges()).as("merges").isPositive();
      }
      TreeMap<String, String> actual = new TreeMap<>();
      try (ScanCursor c = store.scan(null, null)) {
        while (c.hasNext()) {
          KeyValue kv = c.next();
          actual.put(new String(kv.key(), StandardCharsets.UTF_8),
              new String(kv.value(), StandardCharsets.UTF_8));
        }
      }
      assertThat(actual).isEqualTo(model);
      if (policy.equals("partitioned-leveling") || policy.equals("triad-disk")) {
        int deepest = store.runs().stream().mapToInt(r -> r.level()).max().orElse(0);
        assertThat(deepest).as("levels").isGreaterThanOrEqualTo(2);
        assertThat(store.runs()).anySatisfy(r -> assertThat(r.components()).hasSizeGreaterThan(1));
      }
      for (int i = 0; i < 3000; i += 7) {
        String key = String.format("k%05d", i);
        assertThat(store.get(key.getBytes(StandardCharsets.UTF_8))
            .map(b -> new String(b, StandardCharsets.UTF_8))).isEqualTo(
                java.util.Optional.ofNullable(model.get(key)));
      }
    }
    assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
    try (LsmStore reopened = LsmStore.open(dir, null)) {
      TreeMap<String, String> again = new TreeMap<>();
      try (ScanCursor c = reopened.scan(null, null)) {
        while (c.hasNext()) {
          KeyValue kv = c.next();
          again.put(new String(kv.key(), StandardCharsets.UTF_8),
              new String(kv.value(), StandardCharsets.UTF_8));
        }
      }
      assertThat(again).isEqualTo(model);
    }
  }
}
