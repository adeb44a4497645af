package org.strata.lsm;

/**
 * The merges whose output went to one level, cumulative over the store's life (kept in its
 * manifest across restarts): the rows of the compaction-stats table of {@code strata stats} and
 * of the periodic statistics dump.
 *
 * @param merges merges completed into the level
 * @param bytesRead bytes those merges read: the bytes of their input components
 * @param bytesWritten bytes those merges wrote
 * @param seconds seconds those merges ran, scheduler pauses included
 */
public record LevelMerges(long merges, long bytesRead, long bytesWritten, double seconds) {}
