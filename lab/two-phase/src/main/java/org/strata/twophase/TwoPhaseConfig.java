package org.strata.twophase;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.List;
import java.util.Set;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.ConfigChecks;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.sim.des.ArrivalProcess;

/**
 * A two-phase experiment (Luo & Carey section 2; docs/two-phase.md): the dataset, how it is loaded,
 * the testing phase that finds the maximum write throughput, and the running phases that measure
 * latency at a given arrival process. Read and written by {@link TwoPhaseConfigJson} through the
 * configuration mapper. Every key but {@code dataset} has a default (null stands for it); each
 * record checks its values in its constructor, so a configuration built in code is refused as the
 * same values in a file would be.
 *
 * @param name a label for reports; null takes the file name
 * @param description what the experiment reproduces, for the report; default empty
 * @param dataset the dataset's configuration (policy, scheduler of the running phase, budgets);
 *     required
 * @param load how the dataset is filled before either phase
 * @param records the shape of records and of update keys
 * @param testing the closed-loop phase
 * @param running the open-loop phases
 * @param chartWindowSeconds width of the throughput windows in charts (the paper uses 30 s), 1 to
 *     3600, default 30
 * @param seed seed of keys, values and Poisson-free arrivals, default 1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TwoPhaseConfig(
    @JsonProperty("name") @JsonSetter(nulls = Nulls.SKIP) String name,
    @JsonProperty("description") String description,
    @JsonProperty("dataset") DatasetConfig dataset,
    @JsonProperty("load") Load load,
    @JsonProperty("records") Records records,
    @JsonProperty("testing") Testing testing,
    @JsonProperty("running") Running running,
    @JsonProperty("chart-window-seconds") Integer chartWindowSeconds,
    @JsonProperty("seed") Long seed) {

  public TwoPhaseConfig {
    if (dataset == null) {
      throw new InvalidConfigurationException("'dataset' is missing; it holds the dataset"
          + " configuration (docs/datasets.md)");
    }
    description = description == null ? "" : description;
    load = load == null ? new Load(null, null, null, null) : load;
    if (load.memoryComponent() == null) {
      load = new Load(load.records(), dataset.store().memoryComponent().size(), load.compact(),
          load.writers());
    }
    records = records == null ? new Records(null, null, null, null) : records;
    testing = testing == null ? new Testing(null, null, null, null, null) : testing;
    running = running == null
        ? new Running(null, null, null, null, null, null, null, null) : running;
    if (running.schedulers() == null) {
      running = running.withSchedulers(List.of(dataset.store().mergeScheduler()));
    }
    running = checkSecondaryQueries(running, dataset, load.records());
    chartWindowSeconds = ConfigChecks.integer("chart-window-seconds", chartWindowSeconds, 30, 1,
        3600);
    seed = ConfigChecks.integer("seed", seed, 1, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * Secondary queries need the dataset's secondary indexes: refuses kind {@code secondary} without
   * any, an index the dataset lacks and a selectivity above the records loaded; names the first
   * index when none is given.
   */
  private static Running checkSecondaryQueries(Running running, DatasetConfig dataset,
      long records) {
    Queries q = running.queries();
    if (!q.kind().equals("secondary")) {
      return running;
    }
    List<String> names = dataset.secondaryIndexes().stream()
        .map(org.strata.lsm.dataset.SecondaryIndexSpec::name).toList();
    if (names.isEmpty()) {
      throw InvalidConfigurationException.of("running.queries.kind", q.kind(),
          "point, zero-result, short-scan, long-scan (secondary needs dataset.secondary-indexes,"
              + " and this"
              + " dataset has none)");
    }
    if (q.index() != null && !names.contains(q.index())) {
      throw InvalidConfigurationException.of("running.queries.index", q.index(),
          "one of the dataset's secondary indexes: " + String.join(", ", names));
    }
    if (q.selectivity() > records) {
      throw InvalidConfigurationException.of("running.queries.selectivity", q.selectivity(),
          "1 to load.records (" + records + "): the secondary values are uniform over the keys"
              + " loaded, one record per value on average");
    }
    return q.index() != null ? running : running.withQueries(q.withIndex(names.get(0)));
  }

  /** This experiment under another name. */
  public TwoPhaseConfig withName(String newName) {
    return new TwoPhaseConfig(newName, description, dataset, load, records, testing, running,
        chartWindowSeconds, seed);
  }

  /**
   * Loading: {@code records} records in random key order through the dataset's merge policy,
   * with {@code memoryComponent} bytes of memory (default: the dataset's) and no I/O limit, so
   * the tree takes the policy's own shape; then, if {@code compact}, one full merge.
   *
   * @param records {@code load.records}, 1 to 2^40, default 100000
   * @param memoryComponent {@code load.memory-component}, at least 4KB; null: the dataset's
   * @param compact {@code load.compact}, default false
   * @param writers {@code load.writers}, threads that write the load, 1 to 64, default 2
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Load(
      @JsonProperty("records") Long records,
      @JsonProperty("memory-component") ByteSize memoryComponent,
      @JsonProperty("compact") Boolean compact,
      @JsonProperty("writers") Integer writers) {
    public Load {
      records = ConfigChecks.integer("load.records", records, 100_000, 1, 1L << 40);
      writers = ConfigChecks.integer("load.writers", writers, 2, 1, 64);
      if (memoryComponent != null && memoryComponent.bytes() < 4096) {
        throw InvalidConfigurationException.of("load.memory-component", memoryComponent,
            "at least 4KB");
      }
      compact = compact != null && compact;
    }
  }

  /**
   * Records: {@code fields} fields of {@code fieldLength} characters ({@code field1} and {@code
   * field2} are 12-digit numbers uniform over the keys, the secondary fields); update keys drawn
   * uniformly or from a scrambled Zipf distribution with {@code zipfConstant}.
   *
   * @param fields {@code records.fields}, 3 to 100, default 10
   * @param fieldLength {@code records.field-length}, 1 to 2^20, default 122
   * @param distribution {@code records.distribution}: {@code uniform} (default) or {@code zipf}
   * @param zipfConstant {@code records.zipf-constant}, above 0 and below 1, default 0.99
   */
  public record Records(
      @JsonProperty("fields") Integer fields,
      @JsonProperty("field-length") Integer fieldLength,
      @JsonProperty("distribution") String distribution,
      @JsonProperty("zipf-constant") Double zipfConstant) {
    public Records {
      fields = ConfigChecks.integer("records.fields", fields, 10, 3, 100);
      fieldLength = ConfigChecks.integer("records.field-length", fieldLength, 122, 1, 1 << 20);
      distribution = distribution == null ? "uniform" : distribution;
      if (!distribution.equals("uniform") && !distribution.equals("zipf")) {
        throw InvalidConfigurationException.of("records.distribution", distribution,
            "uniform, zipf");
      }
      zipfConstant = ConfigChecks.number("records.zipf-constant", zipfConstant, 0.99,
          v -> v > 0 && v < 1, "a number above 0 and below 1 (YCSB's default 0.99)");
    }
  }

  /**
   * The testing phase: {@code writers} closed-loop writers for {@code durationSeconds}; the first
   * {@code warmupSeconds} are excluded from the mean. {@code scheduler} replaces the dataset's
   * merge scheduler ({@code fair} by default) and {@code policy}, if set, its merge policy (the
   * fixed variants merge exactly min components here).
   *
   * @param durationSeconds {@code testing.duration-seconds}, at least 2, default 7200
   * @param warmupSeconds {@code testing.warmup-seconds}, 0 to less than the duration, default 1200
   * @param writers {@code testing.writers}, 1 to 256, default 1
   * @param scheduler {@code testing.merge-scheduler}, default {@code fair}
   * @param policy {@code testing.merge-policy}, null (the default) keeps the dataset's
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Testing(
      @JsonProperty("duration-seconds") Integer durationSeconds,
      @JsonProperty("warmup-seconds") Integer warmupSeconds,
      @JsonProperty("writers") Integer writers,
      @JsonProperty("merge-scheduler") NamedPlugin scheduler,
      @JsonProperty("merge-policy") NamedPlugin policy) {
    public Testing {
      durationSeconds = ConfigChecks.integer("testing.duration-seconds", durationSeconds, 7200, 2,
          1 << 30);
      warmupSeconds = ConfigChecks.integer("testing.warmup-seconds", warmupSeconds, 1200, 0,
          1 << 30);
      if (warmupSeconds >= durationSeconds) {
        throw InvalidConfigurationException.of("testing.warmup-seconds", warmupSeconds,
            "less than testing.duration-seconds (" + durationSeconds + ")");
      }
      writers = ConfigChecks.integer("testing.writers", writers, 1, 1, 256);
      scheduler = scheduler == null ? new NamedPlugin("fair", null) : scheduler;
    }
  }

  /**
   * The running phases, one per scheduler and per arrival process: constant arrivals at each of
   * {@code utilizations} times the testing throughput, or at {@code rate} writes/s, or a {@code
   * bursts} pattern ({@code RATE:SECONDS,...}); at most one of the three, utilizations {@code
   * [0.95]} if none. Writes wait in an unbounded queue; after {@code durationSeconds} arrivals stop
   * and the queue drains for at most {@code drainSeconds}.
   *
   * @param durationSeconds {@code running.duration-seconds}, at least 1, default 7200
   * @param drainSeconds {@code running.drain-seconds}, at least 0, default 600
   * @param writers {@code running.writers}, 1 to 256, default 1
   * @param schedulers {@code running.merge-schedulers}, non-empty; null: the dataset's scheduler
   *     (filled in by {@link TwoPhaseConfig})
   * @param utilizations {@code running.utilizations}, each above 0 and at most 2
   * @param rate {@code running.rate}, writes per second; 0 (default) for none
   * @param bursts {@code running.bursts}, {@code RATE:SECONDS[,...]}, or null
   * @param queries {@code running.queries}
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record Running(
      @JsonProperty("duration-seconds") Integer durationSeconds,
      @JsonProperty("drain-seconds") Integer drainSeconds,
      @JsonProperty("writers") Integer writers,
      @JsonProperty("merge-schedulers") List<NamedPlugin> schedulers,
      @JsonProperty("utilizations") List<Double> utilizations,
      @JsonProperty("rate") Double rate,
      @JsonProperty("bursts") @JsonSetter(nulls = Nulls.SKIP) String bursts,
      @JsonProperty("queries") Queries queries) {
    public Running {
      durationSeconds = ConfigChecks.integer("running.duration-seconds", durationSeconds, 7200, 1,
          1 << 30);
      drainSeconds = ConfigChecks.integer("running.drain-seconds", drainSeconds, 600, 0, 1 << 30);
      writers = ConfigChecks.integer("running.writers", writers, 1, 1, 256);
      if (schedulers != null) {
        if (schedulers.isEmpty()) {
          throw InvalidConfigurationException.of("running.merge-schedulers", "[]",
              "a non-empty array of {\"name\": ..., \"parameters\": {...}}");
        }
        schedulers = List.copyOf(schedulers);
      }
      if (utilizations != null) {
        if (utilizations.isEmpty()) {
          throw InvalidConfigurationException.of("running.utilizations", "[]",
              "a non-empty array of fractions, e.g. [0.8, 0.9, 0.95]");
        }
        for (double v : utilizations) {
          if (!(v > 0 && v <= 2)) {
            throw InvalidConfigurationException.of("running.utilizations[]", v,
                "a fraction of the testing throughput above 0 and at most 2");
          }
        }
      }
      rate = rate == null ? 0.0 : rate;
      int ways = (utilizations == null ? 0 : 1) + (rate > 0 ? 1 : 0) + (bursts != null ? 1 : 0);
      if (ways > 1) {
        throw new InvalidConfigurationException("running: give one of utilizations, rate or"
            + " bursts, not several");
      }
      if (rate < 0) {
        throw InvalidConfigurationException.of("running.rate", rate, "writes per second above 0");
      }
      if (bursts != null) {
        try {
          ArrivalProcess.Burst.parseAll(bursts);
        } catch (IllegalArgumentException e) {
          throw InvalidConfigurationException.of("running.bursts", bursts,
              "RATE:SECONDS[,RATE:SECONDS...], e.g. 2000:1500,8000:300 (" + e.getMessage() + ")");
        }
      }
      utilizations = ways == 0 ? List.of(0.95) : utilizations == null ? List.of()
          : List.copyOf(utilizations);
      queries = queries == null ? new Queries(null, null, null, null, null) : queries;
    }

    /** These phases with the given queries. */
    public Running withQueries(Queries q) {
      return new Running(durationSeconds, drainSeconds, writers, schedulers,
          utilizations.isEmpty() ? null : utilizations, rate, bursts, q);
    }

    /** These phases with the given schedulers. */
    public Running withSchedulers(List<NamedPlugin> s) {
      return new Running(durationSeconds, drainSeconds, writers, s,
          utilizations.isEmpty() ? null : utilizations, rate, bursts, queries);
    }
  }

  /**
   * Queries run alongside the running phase's writes: {@code threads} threads of {@code kind}
   * {@code point}, {@code short-scan} (100 records), {@code long-scan} ({@code longScanLength}) or
   * {@code secondary}: a range of {@code selectivity} consecutive values of secondary index {@code
   * index}'s field (about that many records), the index scanned, its primary keys sorted and each
   * record fetched from the primary index (Luo & Carey 7.2). {@code secondary} needs a dataset
   * with secondary indexes.
   *
   * @param threads {@code running.queries.threads}, 0 to 256, default 0
   * @param kind {@code running.queries.kind}, default {@code point}: lookups of loaded keys;
   *     {@code zero-result}: lookups of keys never written (Dostoevsky's zero-result lookups)
   * @param longScanLength {@code running.queries.long-scan-length}, 1 to 10^7, default 10000
   * @param selectivity {@code running.queries.selectivity}, records per secondary query, 1 to
   *     10^7 and at most {@code load.records}, default 100
   * @param index {@code running.queries.index}, the secondary index queried (kind {@code
   *     secondary} only); null: the dataset's first (filled in by {@link TwoPhaseConfig})
   * @param bursts {@code running.queries.bursts}, {@code RATE:SECONDS[,...]}: a repeating
   *     pattern of query rates over all query threads, as {@code running.bursts} is for writes
   *     (a write-heavy stretch, then a lookup-heavy one); null (default): as fast as they complete
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Queries(
      @JsonProperty("threads") Integer threads,
      @JsonProperty("kind") String kind,
      @JsonProperty("long-scan-length") Integer longScanLength,
      @JsonProperty("selectivity") Integer selectivity,
      @JsonProperty("index") String index,
      @JsonProperty("bursts") @JsonSetter(nulls = Nulls.SKIP) String bursts) {
    /** The query kinds. */
    public static final Set<String> KINDS = Set.of("point", "zero-result", "short-scan",
        "long-scan", "secondary");

    public Queries {
      threads = ConfigChecks.integer("running.queries.threads", threads, 0, 0, 256);
      kind = kind == null ? "point" : kind;
      if (!KINDS.contains(kind)) {
        throw InvalidConfigurationException.of("running.queries.kind", kind,
            "point, zero-result, short-scan, long-scan, secondary");
      }
      longScanLength = ConfigChecks.integer("running.queries.long-scan-length", longScanLength,
          10_000, 1, 10_000_000);
      selectivity = ConfigChecks.integer("running.queries.selectivity", selectivity, 100, 1,
          10_000_000);
      if (index != null && !kind.equals("secondary")) {
        throw InvalidConfigurationException.of("running.queries.index", index,
            "no index unless running.queries.kind is secondary (it is " + kind + ")");
      }
      if (bursts != null) {
        try {
          ArrivalProcess.Burst.parseAll(bursts);
        } catch (IllegalArgumentException e) {
          throw InvalidConfigurationException.of("running.queries.bursts", bursts,
              "RATE:SECONDS[,RATE:SECONDS...], queries per second over all query threads, e.g."
                  + " 500:300,20000:300 (" + e.getMessage() + ")");
        }
      }
    }

    /** The same queries without {@code bursts} (as fast as they complete). */
    public Queries(Integer threads, String kind, Integer longScanLength, Integer selectivity,
        String index) {
      this(threads, kind, longScanLength, selectivity, index, null);
    }

    /** These queries on secondary index {@code name}. */
    public Queries withIndex(String name) {
      return new Queries(threads, kind, longScanLength, selectivity, name, bursts);
    }
  }
}
