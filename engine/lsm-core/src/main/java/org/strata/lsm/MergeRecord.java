package org.strata.lsm;

/**
 * One completed (or failed) merge, for the per-merge log.
 *
 * @param startMillis wall-clock start
 * @param endMillis wall-clock end
 * @param pausedNanos time spent paused by the scheduler
 * @param inputComponents number of input components
 * @param levelZeroInputs how many of them came from level 0 (flushed runs that no merge has
 *     rewritten yet): with a leveled policy, the level-0 files a level-0 merge took, which shows
 *     whether a policy that defers level-0 merges (TRIAD-DISK) did defer
 * @param inputPages leaf pages read
 * @param outputPages pages written (leaf and interior)
 * @param outputBytes bytes written
 * @param outputLevel level of the output run
 * @param outcome {@code ok}, {@code failed: <reason>} or {@code cancelled}
 */
public record MergeRecord(long startMillis, long endMillis, long pausedNanos, int inputComponents,
    int levelZeroInputs, long inputPages, long outputPages, long outputBytes, int outputLevel,
        String outcome) {}
