package org.strata.sim.des;

/**
 * One simulated merge (Luo & Carey's per-merge log, section 10).
 *
 * @param createdAt when the policy asked for it, seconds
 * @param startedAt when the scheduler started it
 * @param completedAt when it finished
 * @param inputRuns runs merged
 * @param outputLevel level of the output
 * @param bytesWritten bytes of the output
 */
public record MergeLogEntry(double createdAt, double startedAt, double completedAt,
    int inputRuns, int outputLevel, double bytesWritten) {}
