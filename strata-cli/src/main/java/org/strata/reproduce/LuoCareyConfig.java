package org.strata.reproduce;

import java.util.List;
import java.util.Map;
import org.strata.scheduler.des.DesSetup;

/**
 * What {@code strata reproduce luo-carey} runs on the discrete-event simulator.
 *
 * @param tree the simulated tree and machine of the main experiments
 * @param duration simulated seconds of every testing and running phase (the paper: 7200)
 * @param utilization running-phase arrival rate as a fraction of the testing maximum (0.95)
 * @param tiering parameters of the tiering policy (T = 3, one merge per level, constraint 48)
 * @param leveling parameters of the leveling policy (T = 10, one merge per level)
 * @param sizeTiered parameters of the size-tiered policy (T = 1.2, min 2, max 10, cap 50)
 * @param sizeRatios the size ratios of AC-F6's sweep
 * @param smallP99Seconds a p99 write latency at or below this counts as "small" (our reading)
 * @param muchLarger "≫" means at least this many times larger (our reading)
 * @param almostEvery "at almost every sampled instant" allows this fraction of exceptions
 * @param sameThroughput "differs only slightly": maxima within this fraction of each other
 * @param burst AC-F8's bursty arrivals
 * @param pileUp AC-F11's single-thread analysis
 * @param engine the engine's two-phase runs of partitioned leveling (AC-P2, AC-P4), or null to
 *     skip them
 */
public record LuoCareyConfig(Tree tree, double duration, double utilization,
    Map<String, String> tiering, Map<String, String> leveling, Map<String, String> sizeTiered,
    List<Integer> sizeRatios, double smallP99Seconds, double muchLarger, double almostEvery,
    double sameThroughput, Burst burst, PileUp pileUp, Engine engine) {

  public LuoCareyConfig {
    check(tree != null && burst != null && pileUp != null, "tree, burst and pileUp are required");
    check(duration >= 60, "duration must be at least 60 simulated seconds, got " + duration);
    check(utilization > 0 && utilization <= 1, "utilization must be in (0, 1], got "
        + utilization);
    check(sizeRatios != null && sizeRatios.size() >= 2 && sizeRatios.stream().allMatch(
        t -> t >= 2), "sizeRatios must list at least two ratios of 2 or more, got "
        + sizeRatios);
    tiering = Map.copyOf(tiering);
    leveling = Map.copyOf(leveling);
    sizeTiered = Map.copyOf(sizeTiered);
    sizeRatios = List.copyOf(sizeRatios);
  }

  static void check(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("luo-carey: " + message);
    }
  }

  /**
   * Two {@code strata two-phase} experiments on the engine (the configuration format of
   * docs/two-phase.md), for the claims the simulator cannot check.
   *
   * @param partitioned partitioned leveling measured and run with the same policy (AC-P2)
   * @param partitionedExactlyL0 the same, its testing phase merging exactly the L0 trigger's
   *     count (AC-P4)
   * @param fixedRatioTolerance relative tolerance of the fixed-to-unfixed maximum ratio
   */
  public record Engine(com.fasterxml.jackson.databind.JsonNode partitioned,
      com.fasterxml.jackson.databind.JsonNode partitionedExactlyL0,
      double fixedRatioTolerance) {
    public Engine {
      check(partitioned != null && partitioned.isObject() && partitionedExactlyL0 != null
          && partitionedExactlyL0.isObject(), "engine.partitioned and"
          + " engine.partitionedExactlyL0 must be two-phase configurations (JSON objects)");
      org.strata.ycsb.twophase.TwoPhaseConfigJson.bind(partitioned, "luo-carey"
          + " engine.partitioned", "partitioned-leveling");
      org.strata.ycsb.twophase.TwoPhaseConfigJson.bind(partitionedExactlyL0, "luo-carey"
          + " engine.partitionedExactlyL0", "partitioned-leveling-exactly-l0");
    }
  }

  /**
   * A simulated tree and machine.
   *
   * @param entries entries loaded
   * @param entrySize bytes per entry
   * @param memoryComponentBytes M
   * @param bandwidth B, bytes/s for flushes and merges
   */
  public record Tree(long entries, int entrySize, long memoryComponentBytes, double bandwidth) {
    /** The simulator's setup: the paper's with these sizes. */
    public DesSetup setup() {
      return DesSetup.paper().withSizes(entries, entrySize, memoryComponentBytes, bandwidth);
    }
  }

  /**
   * AC-F8: leveling under greedy with alternating arrival rates, writes as soon as possible
   * against writes limited to {@code limitRate}.
   *
   * @param tree the simulated tree (the per-write comparison keeps every write's latency)
   * @param lowRate writes/s of the quiet segment
   * @param lowSeconds its length
   * @param highRate writes/s of the burst
   * @param highSeconds its length
   * @param limitRate the limit
   * @param duration simulated seconds
   */
  public record Burst(Tree tree, double lowRate, double lowSeconds, double highRate,
      double highSeconds, double limitRate, double duration) {}

  /**
   * AC-F11: one merge thread, leveling, no constraint, arrivals at 2B/(T·L).
   *
   * @param tree the simulated tree
   * @param sizeRatio T
   * @param levels L, and the level whose merge is watched
   * @param duration simulated seconds
   */
  public record PileUp(Tree tree, int sizeRatio, int levels, double duration) {}
}
