package org.strata.reproduce;

import java.util.List;

/**
 * What {@code strata reproduce dostoevsky} runs: the same random upserts on the engine under
 * tiering, lazy leveling and leveling, zero-result lookups afterwards, and the tuner on two
 * workloads.
 *
 * @param sizeRatio T of all three designs
 * @param keys distinct keys written (the key space)
 * @param operations upserts, keys drawn uniformly from the key space (so later ones update)
 * @param valueSize bytes per value
 * @param memoryComponentBytes size of a memory component (the paper's buffer)
 * @param bloomFalsePositiveRate the Bloom filters' false-positive rate (one for every component)
 * @param pageSize bytes per page
 * @param lookups zero-result point lookups after the load
 * @param seed the random seed of keys and values (the same for every design)
 * @param orderingMargin how much lower a value must be to count as "lower" in an ordering (0.05:
 *     at least 5% lower)
 * @param tuner the tuner's data shape and the two workloads
 * @param sweepSizeRatios the size ratios of the lookup-cost sweep across T (Figs. 7 and 11 in
 *     shape: the three designs with Monkey's filters at each); empty or absent for none
 * @param tunerOnEngine whether the tuner's picks (and leveling and tiering at their T) are opened
 *     as stores and measured, so that D-T1..D-T3 are judged on the engine (default true); false
 *     judges them on the cost model only
 */
public record DostoevskyConfig(int sizeRatio, long keys, long operations, int valueSize,
    long memoryComponentBytes, double bloomFalsePositiveRate, int pageSize, long lookups,
    long seed, double orderingMargin, Tuner tuner, List<Integer> sweepSizeRatios,
    Boolean tunerOnEngine) {

  public DostoevskyConfig {
    sweepSizeRatios = sweepSizeRatios == null ? List.of() : List.copyOf(sweepSizeRatios);
    for (int t : sweepSizeRatios) {
      check(t >= 2 && t <= 100, "every sweepSizeRatios value must be 2..100, got " + t);
    }
    tunerOnEngine = tunerOnEngine == null || tunerOnEngine;
    check(sizeRatio >= 2, "sizeRatio must be at least 2, got " + sizeRatio);
    check(keys >= 1 && keys <= Integer.MAX_VALUE / 2, "keys must be 1.." + Integer.MAX_VALUE / 2
        + ", got " + keys);
    check(operations >= keys, "operations must be at least keys, got " + operations);
    check(valueSize >= 1, "valueSize must be at least 1, got " + valueSize);
    check(memoryComponentBytes >= 4096, "memoryComponentBytes must be at least 4096, got "
        + memoryComponentBytes);
    check(bloomFalsePositiveRate > 0 && bloomFalsePositiveRate < 1,
        "bloomFalsePositiveRate must lie strictly between 0 and 1, got "
            + bloomFalsePositiveRate);
    check(lookups >= 1, "lookups must be at least 1, got " + lookups);
    check(orderingMargin >= 0 && orderingMargin < 1, "orderingMargin must be in [0, 1), got "
        + orderingMargin);
    check(tuner != null, "tuner is required");
  }

  private static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("dostoevsky: " + message);
    }
  }

  /**
   * The tuner's inputs (as {@code strata tune}).
   *
   * @param entries N
   * @param entrySize bytes per entry
   * @param blockSize bytes per block
   * @param bufferBytes the write buffer
   * @param bitsPerEntry Bloom filter memory per entry
   * @param maxSizeRatio the largest T tried
   * @param updateHeavy the update-dominated workload
   * @param lookupHeavy the lookup-dominated workload
   */
  public record Tuner(double entries, int entrySize, int blockSize, long bufferBytes,
      double bitsPerEntry, int maxSizeRatio, Mix updateHeavy, Mix lookupHeavy) {}

  /**
   * An operation mix (proportions; normalised by the tuner).
   *
   * @param updates updates
   * @param zeroResultLookups point lookups of absent keys
   */
  public record Mix(double updates, double zeroResultLookups) {}
}
