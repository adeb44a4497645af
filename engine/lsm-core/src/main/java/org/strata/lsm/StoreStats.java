package org.strata.lsm;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A snapshot of a store's statistics (docs/architecture.md#statistics; the write-amplification
 * definitions are in docs/papers/README.md#write-amplification). Byte counters are cumulative over
 * the store's life (they are kept in its manifest across restarts).
 *
 * @param diskComponents disk component files
 * @param runs sorted runs
 * @param diskEntries entries in disk components (anti-matter and obsolete versions included)
 * @param memoryEntries distinct keys in memory components
 * @param userBytes key and value bytes of every write accepted (flushed or still in memory)
 * @param userBytesFlushed key and value bytes of the writes that flushes have made durable in
 *     components, counting every write to a memory component (overwritten ones included)
 * @param bytesFlushed bytes written by flushes
 * @param bytesMerged bytes written by merges
 * @param flushes flushes completed
 * @param merges merges completed
 * @param writeAmplification engine definition: (bytesFlushed + bytesMerged) / userBytesFlushed
 * @param modelWriteAmplification Mao et al.'s Problem 1 definition applied to the engine: bytes of
 *     all newly created components over bytes flushed, (bytesFlushed + bytesMerged) / bytesFlushed
 * @param stalls per cause: count and total seconds, ongoing stalls included
 * @param mergeLog the most recent merges, oldest first
 * @param pageCacheHits page cache hits
 * @param pageCacheMisses page cache misses
 * @param diskBytes bytes of the disk component files (the space the index uses on disk)
 * @param pendingMergeBytes input bytes that scheduled merges have not read yet: for each merge
 *     scheduled or running, its input bytes times the share of its input pages still to read (the
 *     analogue of RocksDB's {@code estimate-pending-compaction-bytes}; merges the policy has not
 *     asked for are not counted, see docs/compare.md)
 * @param stalledNow true while a writer is waiting (a stall of any cause is ongoing)
 * @param backgroundError the sticky error of a background flush that stops writes until a {@code
 *     flush()} succeeds (its exception as text), or null while there is none
 * @param bytes the byte counters of the TRIAD and IAM reproductions
 * @param mergesByLevel the completed merges by the level of their output run
 * @param flushDurations how long the flushes since the open took
 * @param mergeDurations how long the merges completed since the open took
 */
public record StoreStats(
    int diskComponents,
    int runs,
    long diskEntries,
    long memoryEntries,
    long userBytes,
    long userBytesFlushed,
    long bytesFlushed,
    long bytesMerged,
    long flushes,
    long merges,
    double writeAmplification,
    double modelWriteAmplification,
    Map<StallCause, StallTotals> stalls,
    List<MergeRecord> mergeLog,
    long pageCacheHits,
    long pageCacheMisses,
    long diskBytes,
    long pendingMergeBytes,
    boolean stalledNow,
    String backgroundError,
    ByteCounters bytes,
    SortedMap<Integer, LevelMerges> mergesByLevel,
    DurationHistogram flushDurations,
    DurationHistogram mergeDurations) {

  public StoreStats {
    bytes = bytes == null ? ByteCounters.zero() : bytes;
    flushDurations = flushDurations == null ? DurationHistogram.empty() : flushDurations;
    mergeDurations = mergeDurations == null ? DurationHistogram.empty() : mergeDurations;
    mergesByLevel = Collections.unmodifiableSortedMap(
        new TreeMap<>(mergesByLevel == null ? Map.of() : mergesByLevel));
  }

  /** Statistics without merges by level. */
  public StoreStats(int diskComponents, int runs, long diskEntries, long memoryEntries,
      long userBytes, long userBytesFlushed, long bytesFlushed, long bytesMerged, long flushes,
      long merges, double writeAmplification, double modelWriteAmplification,
      Map<StallCause, StallTotals> stalls, List<MergeRecord> mergeLog, long pageCacheHits,
      long pageCacheMisses, long diskBytes, long pendingMergeBytes, boolean stalledNow,
      String backgroundError, ByteCounters bytes) {
    this(diskComponents, runs, diskEntries, memoryEntries, userBytes, userBytesFlushed,
        bytesFlushed, bytesMerged, flushes, merges, writeAmplification, modelWriteAmplification,
        stalls, mergeLog, pageCacheHits, pageCacheMisses, diskBytes, pendingMergeBytes,
        stalledNow, backgroundError, bytes, null, null, null);
  }

  /** Statistics without byte counters (all zero). */
  public StoreStats(int diskComponents, int runs, long diskEntries, long memoryEntries,
      long userBytes, long userBytesFlushed, long bytesFlushed, long bytesMerged, long flushes,
      long merges, double writeAmplification, double modelWriteAmplification,
      Map<StallCause, StallTotals> stalls, List<MergeRecord> mergeLog, long pageCacheHits,
      long pageCacheMisses, long diskBytes, long pendingMergeBytes, boolean stalledNow,
      String backgroundError) {
    this(diskComponents, runs, diskEntries, memoryEntries, userBytes, userBytesFlushed,
        bytesFlushed, bytesMerged, flushes, merges, writeAmplification, modelWriteAmplification,
        stalls, mergeLog, pageCacheHits, pageCacheMisses, diskBytes, pendingMergeBytes,
        stalledNow, backgroundError, null, null, null, null);
  }

  /** Count and total duration of stalls of one cause. */
  public record StallTotals(long count, double seconds) {}

  /** Entries in disk and memory components. */
  public long entries() {
    return diskEntries + memoryEntries;
  }
}
