package org.strata.twophase;

import java.util.List;

/**
 * The outcome of one phase.
 *
 * @param name the phase's name ({@code testing}, or {@code running-<scheduler>-<arrivals>})
 * @param scheduler the merge scheduler that ran the phase
 * @param utilization the arrival rate as a fraction of the testing throughput (NaN for a given
 *     rate or bursts, and for the testing phase)
 * @param arrivalRate mean arrival rate in writes/s (0 for the closed-loop testing phase)
 * @param throughput for the testing phase, the maximum write throughput (writes/s after the
 *     warm-up); for a running phase, completed writes over its duration
 * @param samples the per-second time series
 * @param writeLatency write latency: completion minus intended arrival (running phases)
 * @param processingLatency completion minus dequeue (running phases)
 * @param stallCount write stalls that began during the phase (all trees)
 * @param stallSeconds seconds stalled during the phase (summed over trees)
 * @param stallsByCause the stalls split by cause ({@code constraint}, {@code memoryFull})
 * @param maxDiskComponents most disk components (all trees) at a per-second sample
 * @param writeAmplification engine write amplification of the phase's flushes and merges
 * @param arrived writes that arrived
 * @param completed writes completed
 * @param unfinished writes still queued when the drain ended
 * @param queries queries run alongside, or null
 * @param mergeWidths merges completed in the phase by their number of input components (from
 *     each tree's merge log, which keeps the last 1,000 merges; empty for peers)
 * @param queueAtEnd writes queued when the arrivals stopped, before the drain (0 for testing)
 * @param pendingMergeBytesAtEnd pending merge bytes when the phase ended
 * @param spaceBytesAtEnd bytes of disk components when the phase ended
 * @param verdict whether the running phase's rate is sustainable (null for the testing phase)
 * @param gc the JVM's collector pauses and peak heap during the phase
 * @param ioBudget how much of the I/O budget the phase's flushes and merges used (the testing
 *     phase: after its warm-up; a running phase: its seconds of arrivals)
 */
public record PhaseResult(String name, String scheduler, double utilization, double arrivalRate,
    double throughput, List<PhaseSample> samples, Latency writeLatency, Latency processingLatency,
    long stallCount, double stallSeconds,
    java.util.Map<String, org.strata.lsm.StoreStats.StallTotals> stallsByCause,
    long maxDiskComponents, double writeAmplification,
    long arrived, long completed, long unfinished, QueryResult queries,
    java.util.SortedMap<Integer, Long> mergeWidths, long queueAtEnd,
    long pendingMergeBytesAtEnd, long spaceBytesAtEnd, Sustainability.Verdict verdict,
    GcPhase gc, IoBudgetUse ioBudget) {

  /**
   * The most the open loop's generator was late putting a write on the queue during the phase, in
   * milliseconds (the largest of the samples' {@link PhaseSample#arrivalLagMaxMillis()}), or NaN
   * for a closed-loop phase. Every write latency includes its write's arrival lag.
   */
  public double arrivalLagMaxMillis() {
    double max = Double.NaN;
    for (PhaseSample s : samples) {
      if (!Double.isNaN(s.arrivalLagMaxMillis())
          && (Double.isNaN(max) || s.arrivalLagMaxMillis() > max)) {
        max = s.arrivalLagMaxMillis();
      }
    }
    return max;
  }

  /**
   * The space used averaged over the phase: the mean of its per-second samples' disk component
   * bytes, or NaN if it has no sample. A phase's end falls anywhere in its merge cycle (a merge
   * holds its inputs and its output until it installs, and a sorted run's size swings), so the
   * end-of-phase figure ({@link #spaceBytesAtEnd()}) of two runs can differ by more than two
   * systems do; the mean over the phase does not depend on where it ends.
   */
  public double meanSpaceBytes() {
    if (samples.isEmpty()) {
      return Double.NaN;
    }
    double sum = 0;
    for (PhaseSample s : samples) {
      sum += s.spaceBytes();
    }
    return sum / samples.size();
  }

  /**
   * Queries run alongside a running phase.
   *
   * @param kind point, short-scan or long-scan
   * @param threads query threads
   * @param count queries completed
   * @param throughput queries per second
   * @param latency query latency
   */
  public record QueryResult(String kind, int threads, long count, double throughput,
      Latency latency) {}
}
