package org.strata.lsm.config;

import java.util.Map;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;

/**
 * The configuration of one store (one index), as read from the JSON of DESIGN section 4. Every field
 * has a default; see {@code docs/configuration.md}. Instances are immutable; use the {@code with}
 * methods to derive variants.
 *
 * @param mergePolicy {@code merge-policy}: default {@code constant} with {@code num-components=5}
 * @param mergeScheduler {@code merge-scheduler}: default {@code single-thread}
 * @param memoryComponentSize {@code memory-component.size}: bytes per memory component, default 64MB
 * @param memoryComponentCount {@code memory-component.count}: memory components (active + flushing),
 *     default 2
 * @param writeRateLimit {@code io.write-rate-limit}: bytes/s for flushes plus merges, 0 = unlimited
 * @param forceBytes {@code io.force-bytes}: force a flush's or merge's file every this many bytes,
 *     default 16MB; 0 forces only at the end
 * @param pageSize {@code io.page-size}: target size of B+-tree pages, default 4KB
 * @param pageCacheSize {@code page-cache.size}: bytes of decoded pages kept in memory, default 128MB
 * @param bloomFalsePositiveRate {@code bloom-filter.false-positive-rate}: default 0.01
 * @param durability {@code log.durability}: default {@code group}
 * @param logDir {@code log.dir}: directory of the write-ahead log, default {@code <store>/wal}
 * @param groupCommitIntervalMillis {@code log.group-commit-interval-ms}: default 10
 * @param logRecoveryMode {@code log.recovery-mode}: what recovery does with a bad log record,
 *     default {@code tolerate-torn-tail}
 * @param flowControl {@code flow-control}: constraint and write admission, see {@link FlowControl}
 */
public record StoreConfig(
    NamedPlugin mergePolicy,
    NamedPlugin mergeScheduler,
    long memoryComponentSize,
    int memoryComponentCount,
    long writeRateLimit,
    long forceBytes,
    int pageSize,
    long pageCacheSize,
    double bloomFalsePositiveRate,
    Durability durability,
    String logDir,
    long groupCommitIntervalMillis,
    LogRecoveryMode logRecoveryMode,
    FlowControl flowControl) {

  /** The configuration used when no file is given. */
  public static StoreConfig defaults() {
    return new StoreConfig(
        new NamedPlugin("constant", Map.of("num-components", "5")),
        new NamedPlugin("single-thread", Map.of()),
        64L << 20,
        2,
        0,
        16L << 20,
        4096,
        128L << 20,
        0.01,
        Durability.GROUP,
        null,
        10,
        LogRecoveryMode.TOLERATE_TORN_TAIL,
        FlowControl.defaults());
  }

  public StoreConfig withDurability(Durability d) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponentSize, memoryComponentCount,
        writeRateLimit, forceBytes, pageSize, pageCacheSize, bloomFalsePositiveRate, d, logDir,
        groupCommitIntervalMillis, logRecoveryMode, flowControl);
  }

  public StoreConfig withMergePolicy(NamedPlugin p) {
    return new StoreConfig(p, mergeScheduler, memoryComponentSize, memoryComponentCount,
        writeRateLimit, forceBytes, pageSize, pageCacheSize, bloomFalsePositiveRate, durability,
        logDir, groupCommitIntervalMillis, logRecoveryMode, flowControl);
  }

  public StoreConfig withScheduler(NamedPlugin sch) {
    return new StoreConfig(mergePolicy, sch, memoryComponentSize, memoryComponentCount,
        writeRateLimit, forceBytes, pageSize, pageCacheSize, bloomFalsePositiveRate, durability,
        logDir, groupCommitIntervalMillis, logRecoveryMode, flowControl);
  }

  public StoreConfig withMemoryComponent(long size, int count) {
    return new StoreConfig(mergePolicy, mergeScheduler, size, count, writeRateLimit, forceBytes,
        pageSize, pageCacheSize, bloomFalsePositiveRate, durability, logDir,
        groupCommitIntervalMillis, logRecoveryMode, flowControl);
  }

  public StoreConfig withIo(long writeRateLimit, long forceBytes, int pageSize) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponentSize, memoryComponentCount,
        writeRateLimit, forceBytes, pageSize, pageCacheSize, bloomFalsePositiveRate, durability,
        logDir, groupCommitIntervalMillis, logRecoveryMode, flowControl);
  }

  public StoreConfig withFlowControl(FlowControl f) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponentSize, memoryComponentCount,
        writeRateLimit, forceBytes, pageSize, pageCacheSize, bloomFalsePositiveRate, durability,
        logDir, groupCommitIntervalMillis, logRecoveryMode, f);
  }

  public StoreConfig withLogDir(String dir) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponentSize, memoryComponentCount,
        writeRateLimit, forceBytes, pageSize, pageCacheSize, bloomFalsePositiveRate, durability, dir,
        groupCommitIntervalMillis, logRecoveryMode, flowControl);
  }

  public StoreConfig withLogRecoveryMode(LogRecoveryMode mode) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponentSize, memoryComponentCount,
        writeRateLimit, forceBytes, pageSize, pageCacheSize, bloomFalsePositiveRate, durability,
        logDir, groupCommitIntervalMillis, mode, flowControl);
  }

  public StoreConfig withPageCacheSize(long bytes) {
    return new StoreConfig(mergePolicy, mergeScheduler, memoryComponentSize, memoryComponentCount,
        writeRateLimit, forceBytes, pageSize, bytes, bloomFalsePositiveRate, durability, logDir,
        groupCommitIntervalMillis, logRecoveryMode, flowControl);
  }
}
