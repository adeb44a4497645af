package org.strata.reproduce;

import java.util.List;

/**
 * What {@code strata reproduce triad} runs (docs/papers/triad.md#checks): for each workload and
 * read/write mix, the same operations on the engine under five variants (the baseline, TRIAD-MEM
 * only, TRIAD-DISK only, TRIAD-LOG only, full TRIAD), after preloading part of the key space.
 *
 * @param keys the key space (8-byte keys)
 * @param valueSize bytes per value
 * @param memoryComponentBytes the memtable (the paper's 4 MB): the bytes of the keys' newest
 *     versions at which a memory component is full ({@code memory-component.live-size}), or, when
 *     {@code commitLogBytes} is 0, the whole memory component
 * @param commitLogBytes the commit log's bound: the bytes of every version a memory component
 *     holds before it is full ({@code memory-component.size}); its versions are what the paper's
 *     commit log holds, so on a skewed workload this bound fills first, as the paper's commit log
 *     does. The quick and paper scales take RocksDB's rule when {@code max_total_wal_size} is 0,
 *     four times the memtables' total (2 x 4 MB at the paper's scale: 32 MB; at RocksDB's
 *     default 64 MB memtables it is the paper's "hundreds of MB"); 0 to make the memory component
 *     the memtable itself
 * @param preloadFraction the share of the key space loaded before each run (the paper: half)
 * @param operations operations of each run after the preload
 * @param readFractions the read share of each mix (the paper: 0.1 and 0.5); the claims on bytes,
 *     write amplification and merge time use the mix with the fewest reads
 * @param workloads the key popularity of each workload
 * @param fileSize the leveled store's file size (RocksDB's {@code target_file_size_base})
 * @param level1Size its level-1 size ({@code max_bytes_for_level_base})
 * @param sizeRatio its size ratio
 * @param l0Trigger level-0 files that start a level-0 merge (RocksDB: 4)
 * @param l0Stop level-0 files at which writes stop (RocksDB: 24)
 * @param overlapRatio TRIAD-DISK's OVERLAP_RATIO_TH (0.4)
 * @param maxL0Files TRIAD-DISK's MAX_FILES_L0 (6)
 * @param hotPercent TRIAD-MEM's hot keys, percent of a memtable's capacity in entries (Algorithm
 *     2's PERC_HOT), used when {@code hotKeyFraction} is 0
 * @param hotSelector TRIAD-MEM's {@code triad.hot-selector}: {@code top-k} or {@code
 *     above-mean}; null means {@code top-k}
 * @param hotKeyFraction TRIAD-MEM's hot keys as a share of the key space (the paper's evaluation,
 *     section 5.1: the top 1 percent of keys), set as {@code triad.hot-keys}; 0 to use {@code
 *     hotPercent}
 * @param flushThresholdFraction TRIAD-MEM's FLUSH_TH as a share of the memtable ({@code
 *     triad.flush-threshold}), which the paper gives no value for; 0 for the engine's default (a
 *     quarter of the memtable)
 * @param minJudgeSeconds a throughput is judged only from runs at least this long; shorter ones
 *     are too noisy on a shared machine and their throughput claims are not comparable
 * @param throughputSeconds when above 0, the throughput claims are judged from runs of their
 *     own, each on a fresh store after the same preload, that run operations for this many
 *     seconds (the fixed-operation runs, which the byte, write-amplification and merge-time
 *     claims use, last as long as their operations take); 0 judges throughput from the
 *     fixed-operation runs
 * @param pacedOpsPerSecond the rate of the paced runs, which the byte, write-amplification and
 *     merge-time claims read: every variant runs the {@code operations} on every workload at the
 *     mix with the fewest reads, operation i starting no earlier than i / rate seconds after the
 *     first, a rate every variant's merges keep up with on the device (TRIAD-DISK defers a
 *     level-0 merge only while level 0 holds at most {@code maxL0Files} files, and a writer that
 *     outruns the merges leaves more than that whenever a merge could start); 0 runs them
 *     unpaced (closed loop), still drained at the end
 * @param seed the seed of the keys, values and operations (the same for every variant)
 * @param device the store's {@code device} section (docs/configuration.md, "Device"), exactly as
 *     in a store's configuration: every run's flushes, merges (reads too), log and page-cache
 *     misses cost its time; null runs on no device model (at the machine's own speed)
 * @param sweepWriteBandwidths write bandwidths ({@code 8MB} ...) to run the sweep at: the
 *     baseline and full TRIAD closed-loop on WS1 and WS3 at the breakdown mix on a device of each
 *     (read bandwidth scaled with it), for the curve of throughput against the device; empty for
 *     no sweep
 * @param sweepSeconds how long each sweep run lasts
 * @param deviceChoice why {@code device} is the device it is (how it was chosen, and when), for
 *     the report: the paper names an SSD but not its speed, so the scales set one once, before
 *     the judged run, by a rule the report states; null or empty when not said
 */
public record TriadReproductionConfig(long keys, int valueSize, long memoryComponentBytes,
    double preloadFraction, long operations, List<Double> readFractions,
    List<Workload> workloads, long fileSize, long level1Size, int sizeRatio, int l0Trigger,
    int l0Stop, double overlapRatio, int maxL0Files, double hotPercent, long commitLogBytes,
    String hotSelector, double hotKeyFraction, double flushThresholdFraction,
    double minJudgeSeconds, double throughputSeconds, double pacedOpsPerSecond, long seed,
    com.fasterxml.jackson.databind.JsonNode device, List<String> sweepWriteBandwidths,
    double sweepSeconds, String deviceChoice) {

  public TriadReproductionConfig {
    check(keys >= 100 && keys <= Integer.MAX_VALUE, "keys must be 100 to "
        + Integer.MAX_VALUE + ", got " + keys);
    check(valueSize >= 1 && valueSize <= 1 << 20, "valueSize must be 1 to 1048576, got "
        + valueSize);
    check(memoryComponentBytes >= 4096, "memoryComponentBytes must be at least 4096, got "
        + memoryComponentBytes);
    check(preloadFraction >= 0 && preloadFraction <= 1, "preloadFraction must be in [0, 1], got "
        + preloadFraction);
    check(operations >= 1, "operations must be at least 1, got " + operations);
    check(readFractions != null && !readFractions.isEmpty(), "readFractions must list a mix");
    for (double r : readFractions) {
      check(r >= 0 && r < 1, "every read fraction must be in [0, 1), got " + r);
    }
    check(workloads != null && !workloads.isEmpty(), "workloads must list a workload");
    check(fileSize >= 4096, "fileSize must be at least 4096, got " + fileSize);
    check(level1Size >= fileSize, "level1Size must be at least fileSize, got " + level1Size);
    check(sizeRatio >= 2, "sizeRatio must be at least 2, got " + sizeRatio);
    check(l0Trigger >= 1, "l0Trigger must be at least 1, got " + l0Trigger);
    check(l0Stop >= l0Trigger, "l0Stop must be at least l0Trigger, got " + l0Stop);
    check(overlapRatio > 0 && overlapRatio < 1, "overlapRatio must lie in (0, 1), got "
        + overlapRatio);
    check(maxL0Files >= 1, "maxL0Files must be at least 1, got " + maxL0Files);
    check(hotPercent > 0 && hotPercent <= 50, "hotPercent must be in (0, 50], got "
        + hotPercent);
    check(commitLogBytes == 0 || commitLogBytes >= memoryComponentBytes, "commitLogBytes must be"
        + " 0 or at least memoryComponentBytes (" + memoryComponentBytes + "), got "
        + commitLogBytes);
    hotSelector = hotSelector == null ? "top-k" : hotSelector;
    check(hotSelector.equals("top-k") || hotSelector.equals("above-mean"), "hotSelector must be"
        + " top-k or above-mean, got " + hotSelector);
    check(hotKeyFraction >= 0 && hotKeyFraction < 1, "hotKeyFraction must be in [0, 1), got "
        + hotKeyFraction);
    check(flushThresholdFraction >= 0 && flushThresholdFraction < 1, "flushThresholdFraction"
        + " must be in [0, 1), got " + flushThresholdFraction);
    check(minJudgeSeconds >= 0, "minJudgeSeconds must be at least 0, got " + minJudgeSeconds);
    check(throughputSeconds >= 0 && throughputSeconds <= 86_400, "throughputSeconds must be 0"
        + " to 86400, got " + throughputSeconds);
    check(pacedOpsPerSecond >= 0 && pacedOpsPerSecond <= 1e8, "pacedOpsPerSecond must be 0"
        + " to 100000000, got " + pacedOpsPerSecond);
    readFractions = List.copyOf(readFractions);
    workloads = List.copyOf(workloads);
    device = DeviceSettings.device(device, "triad");
    sweepWriteBandwidths = DeviceSettings.sweep(sweepWriteBandwidths, device, "triad");
    check(sweepSeconds >= 0 && sweepSeconds <= 86_400, "sweepSeconds must be 0 to 86400, got "
        + sweepSeconds);
  }

  /** The configured device, or null. */
  public org.strata.lsm.config.DeviceConfig deviceModel() {
    return DeviceSettings.model(device, "triad");
  }

  static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("triad: " + message);
    }
  }

  /** TRIAD-MEM's K as {@code triad.hot-keys}, or 0 when {@code hotPercent} sizes it. */
  public long hotKeys() {
    return hotKeyFraction == 0 ? 0 : Math.max(1, Math.round(hotKeyFraction * keys));
  }

  /**
   * The mix of the throughput breakdown (docs/papers/triad.md#checks, item 4; the paper's Fig. 10):
   * 10/90 read/write if it is run, else {@link #writeMix()}.
   */
  public double breakdownMix() {
    return readFractions.contains(0.1) ? 0.1 : writeMix();
  }

  /** The mix the byte, write-amplification and merge-time claims use: the fewest reads. */
  public double writeMix() {
    return readFractions.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
  }

  /**
   * A workload's key popularity: {@code hotProbability} of the operations go to {@code
   * hotFraction} of the keys (chosen at random), the rest uniformly to the others; {@code
   * hotFraction} 1 is uniform.
   *
   * @param name {@code WS1}, {@code WS2}, {@code WS3} (the claims name these)
   * @param hotFraction the share of keys that are hot, in (0, 1]
   * @param hotProbability the share of operations on hot keys, in [0, 1]
   */
  public record Workload(String name, double hotFraction, double hotProbability) {
    public Workload {
      check(name != null && !name.isBlank(), "a workload needs a name");
      check(hotFraction > 0 && hotFraction <= 1, "workload " + name
          + ": hotFraction must lie in (0, 1], got " + hotFraction);
      check(hotProbability >= 0 && hotProbability <= 1, "workload " + name
          + ": hotProbability must lie in [0, 1], got " + hotProbability);
    }
  }
}
