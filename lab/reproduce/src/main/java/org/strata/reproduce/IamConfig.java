package org.strata.reproduce;

import java.util.List;

/**
 * What {@code strata reproduce iam} runs: hash loads (unique keys in random order) and ordered
 * loads on the engine under {@code lsa}, {@code iam} and LevelDB-style {@code
 * partitioned-leveling}, at a scale s of the paper's "100 GB" experiment (docs/papers/iam.md#checks
 * and #scaling): node size and memory component {@code C_t = 128 MB * s}, data {@code 100 GB * s},
 * cache {@code M = 16 GB * s}, t = 10.
 *
 * @param records records of the hash load (unique keys in random order)
 * @param sequentialRecords records of the ordered load (item 7)
 * @param valueSize bytes per value
 * @param nodeSize C_t, the node size and the memory component's size, in bytes
 * @param fanout t
 * @param cacheBytes M, the memory that caches data (IAM with {@code mixed-level=auto})
 * @param mixedLevel m of the fixed-k runs (the paper's Table 3: level 3)
 * @param ks the sequence limits k of Table 3's rows (1, 2, 3)
 * @param fileSize the leveled baseline's file size (64 MB * s)
 * @param level1Size the leveled baseline's level-1 size (640 MB * s)
 * @param seed the order of the hash load and the values
 * @param orderingMargin how much lower a value must be to count as "lower" in a ranking
 * @param levelTolerance relative tolerance of Table 3's per-level and total values (0.15,
 *     docs/papers/iam.md#checks)
 * @param rankingTolerance relative tolerance of the hash-load totals of item 2 (0.2, the same page)
 * @param sequentialTolerance relative tolerance of item 7's "about 1"
 * @param device the stores' {@code device} section (docs/configuration.md, "Device"), exactly as
 *     a store configuration writes it: flushes and merges take its time, so merges fall behind
 *     the writer as on a disk; write amplification counts bytes, which the device does not
 *     change; null runs on no device model (at the machine's own speed)
 * @param deviceChoice why {@code device} is the device it is, for the report (null: unstated)
 * @param sweepWriteBandwidths write bandwidths ({@code 50MB} ...) at which {@code iam} (m and k
 *     from M) and the leveled baseline load again, on {@code device} with its read bandwidth
 *     scaled alike: their write amplification and load time against the device; empty for none
 */
public record IamConfig(long records, long sequentialRecords, int valueSize, long nodeSize,
    int fanout, long cacheBytes, int mixedLevel, List<Integer> ks, long fileSize,
    long level1Size, long seed, double orderingMargin, double levelTolerance,
    double rankingTolerance, double sequentialTolerance,
    com.fasterxml.jackson.databind.JsonNode device, String deviceChoice,
    List<String> sweepWriteBandwidths) {

  public IamConfig {
    check(records >= 100, "records must be at least 100, got " + records);
    check(sequentialRecords >= 100, "sequentialRecords must be at least 100, got "
        + sequentialRecords);
    check(valueSize >= 1 && valueSize <= 1 << 20, "valueSize must be 1 to 1048576, got "
        + valueSize);
    check(nodeSize >= 4096, "nodeSize must be at least 4096, got " + nodeSize);
    check(fanout >= 2 && fanout <= 100, "fanout must be 2 to 100, got " + fanout);
    check(cacheBytes >= 1, "cacheBytes must be at least 1, got " + cacheBytes);
    check(mixedLevel >= 1 && mixedLevel <= 64, "mixedLevel must be 1 to 64, got " + mixedLevel);
    check(ks != null && !ks.isEmpty(), "ks must list at least one k");
    for (int k : ks) {
      check(k >= 1 && k <= 63, "every k in ks must be 1 to 63, got " + k);
    }
    check(fileSize >= 4096, "fileSize must be at least 4096, got " + fileSize);
    check(level1Size >= fileSize, "level1Size must be at least fileSize, got " + level1Size);
    check(orderingMargin >= 0 && orderingMargin < 1, "orderingMargin must be in [0, 1), got "
        + orderingMargin);
    for (double t : new double[] {levelTolerance, rankingTolerance, sequentialTolerance}) {
      check(t >= 0 && t < 1, "tolerances must be in [0, 1), got " + t);
    }
    ks = List.copyOf(ks);
    device = DeviceSettings.device(device, "iam");
    sweepWriteBandwidths = DeviceSettings.sweep(sweepWriteBandwidths, device, "iam");
  }

  /** The configured device, or null. */
  public org.strata.lsm.config.DeviceConfig deviceModel() {
    return DeviceSettings.model(device, "iam");
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("iam: " + message);
    }
  }
}
