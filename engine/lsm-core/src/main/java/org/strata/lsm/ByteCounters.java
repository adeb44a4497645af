package org.strata.lsm;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The byte counters a reproduction of TRIAD or IAM needs
 * (docs/papers/README.md#write-amplification), cumulative over the store's life (kept in its
 * manifest across restarts). With them both write-amplification definitions follow: IAM's {@code
 * (flushDataBytes + flushIndexBytes + mergeBytes) / userBytes} (the log excluded) and TRIAD's
 * {@code (levelZeroBytes + mergeBytes) / levelZeroBytes}, where {@link #levelZeroBytes()} counts a
 * CL-SSTable's log segment as its data.
 *
 * @param userBytes key and value bytes of every write accepted
 * @param logBytes bytes appended to the store's write-ahead log (record framing included), the
 *     re-logged hot entries of TRIAD-MEM included; 0 for an index of a dataset, whose partition
 *     log is shared
 * @param reloggedEntries entries TRIAD-MEM carried into the next memory component and logged
 *     again
 * @param reloggedBytes key and value bytes of those entries
 * @param flushesSkipped flushes TRIAD-MEM replaced by carrying every key over (no level-0
 *     component created)
 * @param flushDataBytes bytes of the leaf pages flushes wrote (the entries); zero for a TRIAD-LOG
 *     flush, whose values stay in the log segment
 * @param flushIndexBytes bytes flushes wrote besides the leaf pages: interior pages, Bloom filter,
 *     key sketch, meta page and footer; for a TRIAD-LOG flush, the whole CL-SSTable index file
 *     (its leaves hold log pointers, not values)
 * @param mergeBytesByLevel bytes merges wrote, by the level of their output run
 * @param flushLogBytes bytes of the commit-log segments TRIAD-LOG flushes made into level-0
 *     components (CL-SSTables): written by the log, not by the flush, and counted here as the data
 *     of those components, as the paper's CL-SSTable is its commit log plus an index
 * @param mergeDataBytesByLevel bytes of the leaf pages (the entries) merges wrote, by the level of
 *     their output run; the rest of {@code mergeBytesByLevel} is each output file's interior
 *     pages, Bloom filter, key sketch, meta page and footer, a cost per file that many small files
 *     multiply
 */
public record ByteCounters(
    long userBytes,
    long logBytes,
    long reloggedEntries,
    long reloggedBytes,
    long flushesSkipped,
    long flushDataBytes,
    long flushIndexBytes,
    SortedMap<Integer, Long> mergeBytesByLevel,
    long flushLogBytes,
    SortedMap<Integer, Long> mergeDataBytesByLevel) {

  public ByteCounters {
    mergeBytesByLevel = Collections.unmodifiableSortedMap(
        new TreeMap<>(mergeBytesByLevel == null ? Map.of() : mergeBytesByLevel));
    mergeDataBytesByLevel = Collections.unmodifiableSortedMap(
        new TreeMap<>(mergeDataBytesByLevel == null ? Map.of() : mergeDataBytesByLevel));
  }

  /** The counters without a split of merge bytes into leaf pages and the rest. */
  public ByteCounters(long userBytes, long logBytes, long reloggedEntries, long reloggedBytes,
      long flushesSkipped, long flushDataBytes, long flushIndexBytes,
      SortedMap<Integer, Long> mergeBytesByLevel, long flushLogBytes) {
    this(userBytes, logBytes, reloggedEntries, reloggedBytes, flushesSkipped, flushDataBytes,
        flushIndexBytes, mergeBytesByLevel, flushLogBytes, null);
  }

  /** The counters of a store without TRIAD-LOG flushes ({@code flushLogBytes} 0). */
  public ByteCounters(long userBytes, long logBytes, long reloggedEntries, long reloggedBytes,
      long flushesSkipped, long flushDataBytes, long flushIndexBytes,
      SortedMap<Integer, Long> mergeBytesByLevel) {
    this(userBytes, logBytes, reloggedEntries, reloggedBytes, flushesSkipped, flushDataBytes,
        flushIndexBytes, mergeBytesByLevel, 0);
  }

  /** No bytes at all. */
  public static ByteCounters zero() {
    return new ByteCounters(0, 0, 0, 0, 0, 0, 0, null, 0, null);
  }

  /**
   * The bytes of the level-0 components flushes created, TRIAD's "bytes flushed": what flushes
   * wrote plus the log segments TRIAD-LOG made into components.
   */
  public long levelZeroBytes() {
    return flushDataBytes + flushIndexBytes + flushLogBytes;
  }

  /** Bytes all merges wrote. */
  public long mergeBytes() {
    long b = 0;
    for (long v : mergeBytesByLevel.values()) {
      b += v;
    }
    return b;
  }
}
