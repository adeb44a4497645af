package org.strata.twophase;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.Durability;
import org.strata.lsm.config.StoreConfig;

/**
 * Strata through {@code LsmStore.put}: one LSM tree that stores each record's key bytes and raw
 * value bytes, the same bytes the peers get (no record codec, no secondary index). The store uses
 * the dataset configuration's store part (policy, scheduler, memory, I/O, log).
 */
public final class StrataStoreTarget implements TwoPhaseTarget {
  private final String label;
  private final StoreConfig store;
  private final long loadMemoryComponent;

  /**
   * @param label the label in a comparison
   * @param store the store's configuration (its scheduler runs the running phases)
   * @param loadMemoryComponent memory component bytes while loading
   */
  public StrataStoreTarget(String label, StoreConfig store, long loadMemoryComponent) {
    this.label = label;
    this.store = store;
    this.loadMemoryComponent = loadMemoryComponent;
  }

  @Override
  public String system() {
    return "strata";
  }

  @Override
  public String label() {
    return label;
  }

  @Override
  public String description() {
    return "Strata " + policyText(store) + ", LsmStore.put of raw value bytes";
  }

  /** "policy {params}, scheduler S, memory component M x N" for reports. */
  static String policyText(StoreConfig s) {
    return "policy " + s.mergePolicy().name() + " " + s.mergePolicy().parameters()
        + ", scheduler " + s.mergeScheduler().name() + ", memory component "
        + s.memoryComponent().size() + " x "
        + s.memoryComponent().count() + ", log " + s.log().durability().name().toLowerCase(
            java.util.Locale.ROOT);
  }

  @Override
  public List<NamedPlugin> runningSchedulers(List<NamedPlugin> configured) {
    return configured;
  }

  @Override
  public NamedPlugin testingScheduler(NamedPlugin configured) {
    return configured;
  }

  @Override
  public SystemUnderTest open(Path dir, PhaseSetup setup) {
    return new Open(LsmStore.open(dir, StrataDatasetTarget.storeFor(store, setup,
        loadMemoryComponent, Durability.UNLOGGED)));
  }

  /** A design as the samples record it, {@code T=.. K=.. Z=..}. */
  static String design(org.strata.lsm.spi.LevelShape d) {
    return "T=" + d.sizeRatio() + " K=" + d.runsPerLevel() + " Z=" + d.runsAtLargestLevel();
  }

  private static final class Open implements SystemUnderTest, QueryTarget {
    private final LsmStore s;
    /** Whether the store's design can change, so the samples record it. */
    private final boolean adaptive;

    Open(LsmStore s) {
      this.s = s;
      this.adaptive = s.config().mergePolicy().name().equals("adaptive-fluid");
    }

    @Override
    public void write(GeneratedRecord record) {
      s.put(record.keyBytes(), record.valueBytes());
    }

    @Override
    public byte[] read(String key) {
      return s.get(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)).orElse(null);
    }

    @Override
    public void flush() {
      s.flush();
    }

    @Override
    public void awaitMerges() {
      s.awaitMerges();
    }

    @Override
    public TargetStats stats() {
      StoreStats st = s.stats();
      return DatasetTotals.of(List.of(st), Map.of()).toTargetStats(st.runs() + " run(s)")
          .withIoCounters(s.ioBudgetCounters().toMap())
          .withDesign(adaptive ? s.levelShape().map(StrataStoreTarget::design).orElse("") : "");
    }

    @Override
    public SortedMap<Integer, Long> mergeWidths(long sinceMillis) {
      SortedMap<Integer, Long> m = new TreeMap<>();
      for (MergeRecord r : s.stats().mergeLog()) {
        if (r.startMillis() >= sinceMillis && "ok".equals(r.outcome())) {
          m.merge(r.inputComponents(), 1L, Long::sum);
        }
      }
      return m;
    }

    @Override
    public Map<String, StoreStats> treeStats() {
      return Map.of("primary", s.stats());
    }

    @Override
    public Map<String, List<org.strata.lsm.spi.RunInfo>> treeRuns() {
      return Map.of("primary", s.runs());
    }

    @Override
    public CacheCounters cacheCounters() {
      StoreStats st = s.stats();
      return new CacheCounters(st.pageCacheHits(), st.pageCacheMisses());
    }

    @Override
    public QueryTarget queries() {
      return this;
    }

    @Override
    public void get(String key) {
      read(key);
    }

    @Override
    public void scan(String from, int limit) {
      try (org.strata.lsm.ScanCursor c = s.scan(from.getBytes(
          java.nio.charset.StandardCharsets.UTF_8), null)) {
        for (int i = 0; i < limit && c.hasNext(); i++) {
          c.next();
        }
      }
    }

    @Override
    public void close() {
      s.close();
    }
  }
}
