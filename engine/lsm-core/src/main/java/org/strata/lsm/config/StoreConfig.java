package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import org.strata.lsm.Durability;
import org.strata.lsm.InvalidConfigurationException;

/**
 * The configuration of one store (one index), the JSON documented in docs/configuration.md, one
 * record per section. Every section has a default (listed there); null stands for it. Each section
 * checks its values in its constructor, so a configuration built in code is refused exactly as the
 * same values in a file would be. Read and written by {@link ConfigMapper}.
 *
 * @param mergePolicy {@code merge-policy}: default {@code constant} with {@code num-components=5}
 * @param mergeScheduler {@code merge-scheduler}: default {@code single-thread}
 * @param memoryComponent {@code memory-component}: size and count of memory components
 * @param io {@code io}: write-rate limit, force interval, page size
 * @param pageCache {@code page-cache}: size of the decoded-page cache
 * @param bloomFilter {@code bloom-filter}: false-positive rate and allocation
 * @param log {@code log}: durability, directory, group-commit interval, recovery mode
 * @param flowControl {@code flow-control}: constraint and write admission
 * @param triad {@code triad}: TRIAD-MEM (hot keys kept in memory across flushes), default off
 * @param device {@code device}: the storage device model that turns bytes into time; null (the
 *     default) for none
 * @param stats {@code stats}: the periodic statistics dump; null means the defaults
 */
public record StoreConfig(
    @JsonProperty("merge-policy") NamedPlugin mergePolicy,
    @JsonProperty("merge-scheduler") NamedPlugin mergeScheduler,
    @JsonProperty("memory-component") MemoryComponentConfig memoryComponent,
    @JsonProperty("io") IoConfig io,
    @JsonProperty("page-cache") PageCacheConfig pageCache,
    @JsonProperty("bloom-filter") BloomFilterConfig bloomFilter,
    @JsonProperty("log") LogConfig log,
    @JsonProperty("flow-control") FlowControl flowControl,
    @JsonProperty("triad") TriadConfig triad,
    @JsonProperty("device") DeviceConfig device,
    @JsonProperty("stats") StatsConfig stats) {

  /** The default merge policy. */
  public static final NamedPlugin DEFAULT_MERGE_POLICY =
      new NamedPlugin("constant", Map.of("num-components", "5"));
  /** The default merge scheduler. */
  public static final NamedPlugin DEFAULT_MERGE_SCHEDULER = new NamedPlugin("single-thread", null);

  public StoreConfig {
    mergePolicy = mergePolicy == null ? DEFAULT_MERGE_POLICY : mergePolicy;
    mergeScheduler = mergeScheduler == null ? DEFAULT_MERGE_SCHEDULER : mergeScheduler;
    memoryComponent = memoryComponent == null ? MemoryComponentConfig.defaults() : memoryComponent;
    io = io == null ? IoConfig.defaults() : io;
    pageCache = pageCache == null ? PageCacheConfig.defaults() : pageCache;
    bloomFilter = bloomFilter == null ? BloomFilterConfig.defaults() : bloomFilter;
    log = log == null ? LogConfig.defaults() : log;
    flowControl = flowControl == null ? FlowControl.defaults() : flowControl;
    triad = triad == null ? TriadConfig.defaults() : triad;
    stats = stats == null ? StatsConfig.defaults() : stats;
    if (triad.flushThreshold() != null
        && triad.flushThreshold().bytes() > memoryComponent.size().bytes() / 2) {
      throw InvalidConfigurationException.of("triad.flush-threshold",
          triad.flushThreshold(), "a size from 0 to half of memory-component.size ("
              + ByteSize.format(memoryComponent.size().bytes() / 2) + ")");
    }
    if (log.durability() == Durability.UNLOGGED && (triad.mem() || triad.log())) {
      throw InvalidConfigurationException.of("log.durability", "unlogged", "sync, group or none"
          + " with TRIAD (" + (triad.mem() ? "TRIAD-MEM keeps hot keys in memory across flushes,"
          + " so a flush would not make them durable" : "TRIAD-LOG's flushes point into the"
          + " log") + "); or set triad.mem and triad.log to false");
    }
  }

  /** A configuration without a {@code triad} section (TRIAD-MEM off) and no device model. */
  public StoreConfig(NamedPlugin mergePolicy, NamedPlugin mergeScheduler,
      MemoryComponentConfig memoryComponent, IoConfig io, PageCacheConfig pageCache,
      BloomFilterConfig bloomFilter, LogConfig log, FlowControl flowControl) {
    this(mergePolicy, mergeScheduler, memoryComponent, io, pageCache, bloomFilter, log,
        flowControl, null, null, null);
  }

  /** A configuration with no device model. */
  public StoreConfig(NamedPlugin mergePolicy, NamedPlugin mergeScheduler,
      MemoryComponentConfig memoryComponent, IoConfig io, PageCacheConfig pageCache,
      BloomFilterConfig bloomFilter, LogConfig log, FlowControl flowControl, TriadConfig triad) {
    this(mergePolicy, mergeScheduler, memoryComponent, io, pageCache, bloomFilter, log,
        flowControl, triad, null, null);
  }

  /** The configuration used when no file is given. */
  public static StoreConfig defaults() {
    return new StoreConfig(null, null, null, null, null, null, null, null, null, null, null);
  }

  /** This configuration with the device model {@code d} (null: none). */
  public StoreConfig withDevice(DeviceConfig d) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponent, io, pageCache,
        bloomFilter, log, flowControl, triad, d, stats);
  }

  /** This configuration with another merge policy. */
  public StoreConfig withMergePolicy(NamedPlugin p) {
    return new StoreConfig(p, mergeScheduler, memoryComponent, io, pageCache, bloomFilter, log,
        flowControl, triad, device, stats);
  }

  /** This configuration with another merge scheduler. */
  public StoreConfig withMergeScheduler(NamedPlugin s) {
    return new StoreConfig(mergePolicy, s, memoryComponent, io, pageCache, bloomFilter, log,
        flowControl, triad, device, stats);
  }

  /** This configuration with another {@code memory-component} section. */
  public StoreConfig withMemoryComponent(MemoryComponentConfig m) {
    return new StoreConfig(mergePolicy, mergeScheduler, m, io, pageCache, bloomFilter, log,
        flowControl, triad, device, stats);
  }

  /** This configuration with another {@code io} section. */
  public StoreConfig withIo(IoConfig i) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponent, i, pageCache, bloomFilter,
        log, flowControl, triad, device, stats);
  }

  /** This configuration with another {@code page-cache} section. */
  public StoreConfig withPageCache(PageCacheConfig c) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponent, io, c, bloomFilter, log,
        flowControl, triad, device, stats);
  }

  /** This configuration with another {@code bloom-filter} section. */
  public StoreConfig withBloomFilter(BloomFilterConfig b) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponent, io, pageCache, b, log,
        flowControl, triad, device, stats);
  }

  /** This configuration with another {@code log} section. */
  public StoreConfig withLog(LogConfig l) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponent, io, pageCache,
        bloomFilter, l, flowControl, triad, device, stats);
  }

  /** This configuration with log durability {@code d}, the rest of its {@code log} unchanged. */
  public StoreConfig withDurability(Durability d) {
    return withLog(log.withDurability(d));
  }

  /** This configuration with another {@code triad} section. */
  public StoreConfig withTriad(TriadConfig t) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponent, io, pageCache,
        bloomFilter, log, flowControl, t, device, stats);
  }

  /** This configuration with another {@code flow-control} section. */
  public StoreConfig withFlowControl(FlowControl f) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponent, io, pageCache,
        bloomFilter, log, f, triad, device, stats);
  }

  /** This configuration with another {@code stats} section. */
  public StoreConfig withStats(StatsConfig st) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponent, io, pageCache,
        bloomFilter, log, flowControl, triad, device, st);
  }
}
