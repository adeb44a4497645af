package org.strata.ycsb.twophase;

import java.util.List;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.dataset.DatasetConfig;

/**
 * A two-phase experiment (Luo & Carey section 2; docs/two-phase.md): the dataset, how it is loaded,
 * the testing phase that finds the maximum write throughput, and the running phases that measure
 * latency at a given arrival process. Read from JSON by {@link TwoPhaseConfigJson}.
 *
 * @param name a label for reports
 * @param description what the experiment reproduces, for the report
 * @param dataset the dataset's configuration (policy, scheduler of the running phase, budgets)
 * @param load how the dataset is filled before either phase
 * @param records the shape of records and of update keys
 * @param testing the closed-loop phase
 * @param running the open-loop phases
 * @param chartWindowSeconds width of the throughput windows in charts (the paper uses 30 s)
 * @param seed seed of keys, values and Poisson-free arrivals
 */
public record TwoPhaseConfig(String name, String description, DatasetConfig dataset, Load load, Records records,
    Testing testing, Running running, int chartWindowSeconds, long seed) {

  /**
   * Loading: {@code records} records in random key order through the dataset's merge policy,
   * with {@code memoryComponent} bytes of memory (default: the dataset's) and no I/O limit, so
   * the tree takes the policy's own shape; then, if {@code compact}, one full merge.
   */
  public record Load(long records, long memoryComponent, boolean compact) {}

  /**
   * Records: {@code fields} fields of {@code fieldLength} characters ({@code field1} and {@code
   * field2} are 12-digit numbers uniform over the keys, the secondary fields); update keys drawn
   * uniformly or from a scrambled Zipf distribution with {@code zipfConstant}.
   */
  public record Records(int fields, int fieldLength, String distribution, double zipfConstant) {}

  /**
   * The testing phase: {@code writers} closed-loop writers for {@code durationSeconds}; the first
   * {@code warmupSeconds} are excluded from the mean. {@code scheduler} replaces the dataset's
   * merge scheduler ({@code fair} by default) and {@code policy}, if set, its merge policy (the
   * fixed variants merge exactly min components here).
   */
  public record Testing(int durationSeconds, int warmupSeconds, int writers, NamedPlugin scheduler,
      NamedPlugin policy) {}

  /**
   * The running phases, one per scheduler and per arrival process: constant arrivals at each of
   * {@code utilizations} times the testing throughput, or at {@code rate} writes/s, or a {@code
   * bursts} pattern ({@code RATE:SECONDS,...}). Writes wait in an unbounded queue; after {@code
   * durationSeconds} arrivals stop and the queue drains for at most {@code drainSeconds}.
   */
  public record Running(int durationSeconds, int drainSeconds, int writers,
      List<NamedPlugin> schedulers, List<Double> utilizations, double rate, String bursts,
      Queries queries) {}

  /**
   * Queries run alongside the running phase's writes: {@code threads} threads of {@code kind}
   * {@code point}, {@code short-scan} (100 records) or {@code long-scan} ({@code longScanLength}).
   */
  public record Queries(int threads, String kind, int longScanLength) {}
}
