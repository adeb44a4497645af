package org.strata.sim.des;

import java.util.List;

/**
 * What one simulated phase measured.
 *
 * @param phase {@code testing} (closed loop) or {@code running} (open loop)
 * @param scheduler the scheduler's name
 * @param duration simulated seconds
 * @param arrivalRate mean arrival rate (writes/s) of an open loop; 0 for a closed loop
 * @param writesCompleted writes processed in the phase
 * @param maxThroughput writes/s over the phase without its first sixth (the paper's 20 of 120
 *     minutes): the testing phase's maximum write throughput
 * @param writeLatency completion minus intended arrival (queueing included), open loop only
 * @param processingLatency completion minus the moment the writer took the write
 * @param stallCount distinct intervals in which writes were stopped (either cause)
 * @param stallSeconds total stopped time
 * @param longestStallSeconds the longest single stop
 * @param memoryStalls stops because every memory component was full
 * @param constraintStalls stops because the component constraint was violated
 * @param maxDiskComponents the most disk components at any instant
 * @param maxFlushedComponents the most level-0 (flushed, unmerged) components at any instant
 * @param writeAmplification (bytes flushed + bytes merged) / bytes flushed
 * @param queuedAtEnd writes that arrived but were not processed when the phase ended
 * @param rejectedMerges merge requests the simulated tree refused (0 for a correct policy)
 * @param series one sample per second
 * @param merges every merge that completed
 */
public record DesPhaseResult(String phase, String scheduler, double duration, double arrivalRate,
    long writesCompleted, double maxThroughput, LatencySummary writeLatency,
    LatencySummary processingLatency, int stallCount, double stallSeconds,
    double longestStallSeconds, int memoryStalls, int constraintStalls, int maxDiskComponents,
        int maxFlushedComponents,
    double writeAmplification, long queuedAtEnd, long rejectedMerges, List<SecondSample> series,
    List<MergeLogEntry> merges) {}
