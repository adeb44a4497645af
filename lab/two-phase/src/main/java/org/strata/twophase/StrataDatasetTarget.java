package org.strata.twophase;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.strata.lsm.Durability;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetRecord;

/**
 * Strata through its dataset API: records go through the record codec into the primary index
 * (and any secondary indexes), as {@code strata two-phase} has always run.
 */
public final class StrataDatasetTarget implements TwoPhaseTarget {
  private final String label;
  private final DatasetConfig dataset;
  private final long loadMemoryComponent;

  /**
   * @param label the label in a comparison
   * @param dataset the dataset's configuration (its scheduler runs the running phases)
   * @param loadMemoryComponent memory component bytes while loading
   */
  public StrataDatasetTarget(String label, DatasetConfig dataset, long loadMemoryComponent) {
    this.label = label;
    this.dataset = dataset;
    this.loadMemoryComponent = loadMemoryComponent;
  }

  /** The target of a two-phase configuration, labelled {@code strata}. */
  public static StrataDatasetTarget of(TwoPhaseConfig config) {
    return new StrataDatasetTarget("strata", config.dataset(),
        config.load().memoryComponent().bytes());
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
    StoreConfig s = dataset.store();
    return "Strata " + StrataStoreTarget.policyText(s) + ", dataset API (record codec), "
        + dataset.secondaryIndexes().size() + " secondary index(es), " + dataset.partitions()
        + " partition(s)";
  }

  @Override
  public List<String> secondaryIndexes() {
    return dataset.secondaryIndexes().stream()
        .map(org.strata.lsm.dataset.SecondaryIndexSpec::name).toList();
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
    return new Open(Dataset.open(dir, dataset.withStore(storeFor(dataset.store(), setup,
        loadMemoryComponent, Durability.NONE))));
  }

  /**
   * The store configuration of a phase: loading runs unthrottled, with {@code fair} and log
   * durability {@code loadDurability}: a store's load is {@code unlogged}, as RocksDB's loads run
   * without their write-ahead log, and a dataset's {@code none} (a dataset refuses {@code
   * unlogged}: its indexes agree after a crash only through their log).
   */
  static StoreConfig storeFor(StoreConfig s, PhaseSetup setup, long loadMemoryComponent,
      Durability loadDurability) {
    return switch (setup.kind()) {
      case LOAD -> s
          .withMemoryComponent(MemoryComponentConfig.of(loadMemoryComponent,
              s.memoryComponent().count()))
          .withIo(new IoConfig(ByteSize.ofBytes(0), s.io().forceBytes(), s.io().pageSize()))
          .withDurability(loadDurability)
          .withMergeScheduler(new NamedPlugin("fair", Map.of()));
      case TESTING -> {
        StoreConfig t = s.withMergeScheduler(setup.scheduler());
        yield setup.policy() == null ? t : t.withMergePolicy(setup.policy());
      }
      case RUNNING -> s.withMergeScheduler(setup.scheduler());
    };
  }

  private static final class Open implements SystemUnderTest, QueryTarget {
    private final Dataset ds;
    /** Partition 0's primary index, whose design the samples record if it can change; or null. */
    private final org.strata.lsm.engine.LsmTree adaptive;

    Open(Dataset ds) {
      this.ds = ds;
      org.strata.lsm.engine.LsmTree first = ds.tree(0, ds.indexNames().get(0));
      this.adaptive = first.config().mergePolicy().name().equals("adaptive-fluid") ? first : null;
    }

    @Override
    public void write(GeneratedRecord record) {
      ds.upsert(record.key(), record.fields());
    }

    @Override
    public byte[] read(String key) {
      Optional<DatasetRecord> r = ds.get(key);
      return r.map(x -> GeneratedRecord.valueBytes(x.fields())).orElse(null);
    }

    @Override
    public void flush() {
      ds.flush();
    }

    @Override
    public void awaitMerges() {
      ds.awaitMerges();
    }

    @Override
    public TargetStats stats() {
      Map<String, StoreStats> trees = ds.treeStats();
      TargetStats t = DatasetTotals.of(trees.values(), ds.memoryStalls()).toTargetStats(
          trees.size() + " tree(s)");
      t = t.withIoCounters(ds.ioBudgetCounters().toMap());
      return adaptive == null ? t
          : t.withDesign(adaptive.levelShape().map(StrataStoreTarget::design).orElse(""));
    }

    @Override
    public SortedMap<Integer, Long> mergeWidths(long sinceMillis) {
      SortedMap<Integer, Long> m = new TreeMap<>();
      for (StoreStats s : ds.treeStats().values()) {
        for (MergeRecord r : s.mergeLog()) {
          if (r.startMillis() >= sinceMillis && "ok".equals(r.outcome())) {
            m.merge(r.inputComponents(), 1L, Long::sum);
          }
        }
      }
      return m;
    }

    @Override
    public Map<String, StoreStats> treeStats() {
      return ds.treeStats();
    }

    @Override
    public Map<String, List<org.strata.lsm.spi.RunInfo>> treeRuns() {
      Map<String, List<org.strata.lsm.spi.RunInfo>> out = new java.util.LinkedHashMap<>();
      for (int p = 0; p < ds.partitionCount(); p++) {
        for (String name : ds.indexNames()) {
          out.put("p" + p + "/" + name, ds.tree(p, name).runs());
        }
      }
      return out;
    }

    @Override
    public CacheCounters cacheCounters() {
      long hits = 0;
      long misses = 0;
      for (StoreStats s : ds.treeStats().values()) {
        hits += s.pageCacheHits();
        misses += s.pageCacheMisses();
      }
      return new CacheCounters(hits, misses);
    }

    @Override
    public QueryTarget queries() {
      return this;
    }

    @Override
    public void get(String key) {
      ds.get(key);
    }

    @Override
    public void scan(String from, int limit) {
      ds.scan(from, limit);
    }

    @Override
    public List<String> secondaryRange(String index, String from, String to) {
      return ds.queryRange(index, from, to).stream().map(DatasetRecord::key).toList();
    }

    @Override
    public void close() {
      ds.close();
    }
  }
}
