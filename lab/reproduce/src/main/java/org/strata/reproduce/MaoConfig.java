package org.strata.reproduce;

import java.util.List;
import org.strata.sim.des.DesSetup;

/**
 * What {@code strata reproduce mao} runs: the merge-policy simulator with uniform flushes for the
 * write amplification of Table I, and the discrete-event simulator, whose merges take time, for
 * its average component counts.
 *
 * @param policies the bounded-depth policies (Table I has bigtable, binomial, exploring and
 *     min-latency)
 * @param k the bounds on the component count (Table I: 3, 4, 5, 6, 7, 8, 10)
 * @param flushes flushes simulated per policy and k (Table I reports n up to 20,000)
 * @param staticTolerance relative tolerance of a cell for binomial and min-latency (15%,
 *     docs/papers/mao.md#tolerances)
 * @param sizeBasedTolerance relative tolerance for bigtable and exploring (25%, the same page)
 * @param curveK the k whose write amplification against flushes is drawn (as the paper's Fig. 2)
 * @param countRun the discrete-event runs that give the average component counts
 */
public record MaoConfig(List<String> policies, List<Integer> k, long flushes,
    double staticTolerance, double sizeBasedTolerance, int curveK, CountRun countRun) {
  public MaoConfig {
    if (policies == null || policies.isEmpty()) {
      throw new IllegalArgumentException("mao: policies must name at least one policy");
    }
    if (k == null || k.isEmpty() || k.stream().anyMatch(v -> v < 1)) {
      throw new IllegalArgumentException("mao: k must list bounds of at least 1, got " + k);
    }
    if (flushes < 1) {
      throw new IllegalArgumentException("mao: flushes must be at least 1, got " + flushes);
    }
    if (countRun == null) {
      throw new IllegalArgumentException("mao: countRun is missing");
    }
    policies = List.copyOf(policies);
    k = List.copyOf(k);
  }

  /**
   * The discrete-event simulation of the paper's runs ({@code DiscreteEventSimulator.ingest}): an
   * empty store, one writer of new keys, flushes and merges that take time on one disk. The
   * {@code ...Choice} texts say where each value comes from; they are printed on the page.
   *
   * @param entries the keys the paper's workload writes (each write a new key)
   * @param entrySize bytes per record
   * @param memoryComponentBytes the MemTable's capacity in bytes: a flush holds this much
   * @param memoryComponents memory components (one fills while another is flushed)
   * @param writeRate writes/s of the one writer, which takes the next write as soon as the last is
   *     in
   * @param bandwidth bytes/s of the disk for flushes (first) and merges together
   * @param scheduler the merge scheduler ({@code fair}, {@code greedy}, {@code single-thread})
   * @param constraint when writes stop: {@code global} (the policy's component constraint),
   *     {@code merging} (while any merge runs: the flow control AsterixDB applies to these
   *     policies, its {@code isMergeLagging}) or {@code none}
   * @param sizeChoice where the sizes come from
   * @param writeRateChoice where the write rate comes from
   * @param bandwidthChoice where the bandwidth comes from
   * @param flowChoice why the memory components, scheduler and constraint are these
   */
  public record CountRun(long entries, int entrySize, long memoryComponentBytes,
      int memoryComponents, double writeRate, double bandwidth, String scheduler,
      String constraint, String sizeChoice, String writeRateChoice, String bandwidthChoice,
      String flowChoice) {
    public CountRun {
      if (scheduler == null || scheduler.isBlank()) {
        throw new IllegalArgumentException("mao: countRun.scheduler must name a merge scheduler");
      }
      if (constraint == null || !(constraint.equals("global") || constraint.equals("merging")
          || constraint.equals("none"))) {
        throw new IllegalArgumentException("mao: countRun.constraint must be global, merging or"
            + " none, got " + constraint);
      }
      for (String[] c : new String[][] {{"sizeChoice", sizeChoice},
          {"writeRateChoice", writeRateChoice}, {"bandwidthChoice", bandwidthChoice},
          {"flowChoice", flowChoice}}) {
        if (c[1] == null || c[1].isBlank()) {
          throw new IllegalArgumentException("mao: countRun." + c[0] + " must say where the"
              + " value comes from");
        }
      }
      try {
        setup(entries, entrySize, memoryComponentBytes, memoryComponents, writeRate, bandwidth,
            constraint);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("mao: countRun: " + e.getMessage(), e);
      }
    }

    /**
     * The simulated machine: writes as soon as possible at {@code writeRate}, stopped by the
     * policy's {@code isMergeLagging} ({@code global}) unless the constraint is {@code none};
     * under {@code merging} that answer is replaced ({@link MaoReproduction#countRun}).
     */
    public DesSetup setup() {
      return setup(entries, entrySize, memoryComponentBytes, memoryComponents, writeRate,
          bandwidth, constraint);
    }

    private static DesSetup setup(long entries, int entrySize, long memoryComponentBytes,
        int memoryComponents, double writeRate, double bandwidth, String constraint) {
      return new DesSetup(entries, entrySize, memoryComponentBytes, memoryComponents, bandwidth,
          4096, writeRate, constraint.equals("none") ? "none" : "global", "asap", writeRate, 1);
    }
  }
}
