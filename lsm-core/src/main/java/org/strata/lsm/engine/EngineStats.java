package org.strata.lsm.engine;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.memory.MemoryComponent;

/**
 * The statistics of one index: typed counters that the manifest keeps across restarts (under the
 * names of {@link Counter}, unchanged since the first manifest format; one, the largest flush, is
 * a high-water mark the merge policy reads), write stalls, the recent
 * merges and the sticky background error, assembled into {@link StoreStats} on request. Guarded
 * by the tree lock: every method is called with it held.
 */
final class EngineStats {
  /** Most recent merges kept for {@link StoreStats#mergeLog()}. */
  static final int MERGE_LOG_LIMIT = 1000;

  /** The counters persisted in the manifest, with their manifest names. */
  enum Counter {
    USER_BYTES_FLUSHED("userBytesFlushed"),
    BYTES_FLUSHED("bytesFlushed"),
    BYTES_MERGED("bytesMerged"),
    FLUSHES("flushes"),
    MERGES("merges"),
    /**
     * The largest flushed file, a high-water mark rather than a sum: merge policies size levels
     * by it ({@link org.strata.lsm.spi.MergeContext#largestFlushBytes()}). Manifests written
     * before it existed read as 0.
     */
    LARGEST_FLUSH("largestFlushBytes");

    final String manifestName;

    Counter(String manifestName) {
      this.manifestName = manifestName;
    }
  }

  private final long[] counters = new long[Counter.values().length];
  private final StallTracker stalls = new StallTracker();
  private final ArrayDeque<MergeRecord> mergeLog = new ArrayDeque<>();

  /** Restores the counters and stall totals from a manifest's counter map. */
  void restore(Map<String, Long> saved) {
    for (Counter c : Counter.values()) {
      counters[c.ordinal()] = saved.getOrDefault(c.manifestName, 0L);
    }
    for (StallCause s : StallCause.values()) {
      stalls.restore(s, saved.getOrDefault(countKey(s), 0L), saved.getOrDefault(nanosKey(s), 0L));
    }
  }

  /** The counter map the manifest stores. */
  Map<String, Long> persisted() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (Counter c : Counter.values()) {
      m.put(c.manifestName, counters[c.ordinal()]);
    }
    for (StallCause s : StallCause.values()) {
      m.put(countKey(s), stalls.count(s));
      m.put(nanosKey(s), stalls.nanos(s));
    }
    return m;
  }

  private static String countKey(StallCause s) {
    return "stalls." + s.jsonName() + ".count";
  }

  private static String nanosKey(StallCause s) {
    return "stalls." + s.jsonName() + ".nanos";
  }

  long get(Counter c) {
    return counters[c.ordinal()];
  }

  /** Counts a flush of {@code userBytes} of writes into a file of {@code fileBytes}. */
  void flushed(long userBytes, long fileBytes) {
    counters[Counter.USER_BYTES_FLUSHED.ordinal()] += userBytes;
    counters[Counter.BYTES_FLUSHED.ordinal()] += fileBytes;
    counters[Counter.FLUSHES.ordinal()]++;
    counters[Counter.LARGEST_FLUSH.ordinal()] =
        Math.max(counters[Counter.LARGEST_FLUSH.ordinal()], fileBytes);
  }

  /** Counts a completed merge that wrote {@code bytes}. */
  void merged(long bytes, MergeRecord record) {
    counters[Counter.BYTES_MERGED.ordinal()] += bytes;
    counters[Counter.MERGES.ordinal()]++;
    recordMerge(record);
  }

  /** Keeps the record of a merge (completed, failed or cancelled). */
  void recordMerge(MergeRecord r) {
    mergeLog.addLast(r);
    while (mergeLog.size() > MERGE_LOG_LIMIT) {
      mergeLog.removeFirst();
    }
  }

  /** The write stalls of this index. */
  StallTracker stalls() {
    return stalls;
  }

  /** A writer was admitted: ends an ongoing stall. */
  void stallEnded(long nowNanos) {
    stalls.end(nowNanos);
  }

  /**
   * The statistics of version {@code v}.
   *
   * @param pendingMergeBytes input bytes the scheduled merges have not read yet
   * @param backgroundError the sticky background error, or null
   */
  StoreStats snapshot(Version v, long pendingMergeBytes, PageCache cache, long nowNanos,
      Throwable backgroundError) {
    long diskEntries = 0;
    long diskBytes = 0;
    for (Run r : v.runs) {
      diskEntries += r.entries();
      diskBytes += r.sizeBytes();
    }
    long memEntries = 0;
    long memUser = 0;
    for (MemoryComponent mc : v.memory) {
      memEntries += mc.entryCount();
      memUser += mc.userBytes();
    }
    long userFlushed = get(Counter.USER_BYTES_FLUSHED);
    long flushed = get(Counter.BYTES_FLUSHED);
    long merged = get(Counter.BYTES_MERGED);
    double wa = userFlushed == 0 ? 0 : (double) (flushed + merged) / userFlushed;
    double mwa = flushed == 0 ? 0 : (double) (flushed + merged) / flushed;
    return new StoreStats(v.diskComponentCount(), v.runs.size(), diskEntries, memEntries,
        userFlushed + memUser, userFlushed, flushed, merged, get(Counter.FLUSHES),
        get(Counter.MERGES), wa, mwa, stalls.totals(nowNanos), List.copyOf(mergeLog),
        cache.hits(), cache.misses(), diskBytes, pendingMergeBytes, stalls.ongoing(),
        backgroundError == null ? null : backgroundError.toString());
  }
}
