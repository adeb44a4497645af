package org.strata.bench;

import java.util.Map;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;

/**
 * A real store with an exact number of disk components for the read benchmarks: the {@code
 * no-merge} policy (so nothing merges them away), ids {@code [0, entries)} loaded in id order
 * (a random key order) and split into {@code components} equal flushes. Every component therefore
 * holds a random subset of the whole key range, so key-range checks cannot skip any of them and
 * only the Bloom filters can.
 */
final class StoreFixture implements AutoCloseable {
  private final TempDir dir;
  private final LsmStore store;

  private StoreFixture(TempDir dir, LsmStore store) {
    this.dir = dir;
    this.store = store;
  }

  /**
   * Builds the store and checks its shape: {@code components} runs, every sampled loaded key found
   * with its value and every sampled missing key absent. A failed check throws, which makes the
   * benchmark fail rather than measure a different store.
   */
  static StoreFixture build(String name, int entries, int components, byte[][] values) {
    TempDir dir = TempDir.create(name);
    StoreConfig config = StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin("no-merge", Map.of()))
        .withDurability(Durability.NONE)
        .withMemoryComponent(MemoryComponentConfig.of(256L << 20, 2));
    LsmStore store = LsmStore.open(dir.path().resolve("store"), config);
    StoreFixture f = new StoreFixture(dir, store);
    try {
      long id = 0;
      for (int c = 0; c < components; c++) {
        long end = (long) entries * (c + 1) / components;
        for (; id < end; id++) {
          store.put(BenchData.key(id), values[(int) (id % values.length)]);
        }
        store.flush();
      }
      f.check(entries, components, values);
      return f;
    } catch (RuntimeException e) {
      f.close();
      throw e;
    }
  }

  private void check(int entries, int components, byte[][] values) {
    int runs = store.runs().size();
    if (runs != components) {
      throw new IllegalStateException("the store has " + runs + " runs, expected " + components);
    }
    for (long id = 0; id < entries; id += Math.max(1, entries / 1000)) {
      byte[] v = store.get(BenchData.key(id)).orElseThrow(
          () -> new IllegalStateException("a loaded key is missing from the store"));
      if (v.length != values[(int) (id % values.length)].length) {
        throw new IllegalStateException("a loaded key has a value of " + v.length + " bytes");
      }
      if (store.get(BenchData.key(entries + id)).isPresent()) {
        throw new IllegalStateException("a key that was never written is in the store");
      }
    }
  }

  LsmStore store() {
    return store;
  }

  /** Closes the store and deletes its directory. */
  @Override
  public void close() {
    try {
      store.close();
    } finally {
      dir.close();
    }
  }
}
