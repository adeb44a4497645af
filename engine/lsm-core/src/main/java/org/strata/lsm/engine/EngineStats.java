package org.strata.lsm.engine;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.strata.lsm.ByteCounters;
import org.strata.lsm.DurationHistogram;
import org.strata.lsm.LevelMerges;
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
    LARGEST_FLUSH("largestFlushBytes"),
    /** Bytes appended to the log before this open (the log counts those since). */
    LOG_BYTES("logBytes"),
    /** TRIAD-MEM: entries carried into the next memory component and logged again. */
    RELOGGED_ENTRIES("triad.reloggedEntries"),
    /** TRIAD-MEM: key and value bytes of those entries. */
    RELOGGED_BYTES("triad.reloggedBytes"),
    /** TRIAD-MEM: flushes replaced by carrying every key over. */
    FLUSHES_SKIPPED("triad.flushesSkipped"),
    /** Leaf-page bytes flushes wrote. */
    FLUSH_DATA_BYTES("flushDataBytes"),
    /** Bytes flushes wrote besides leaf pages. */
    FLUSH_INDEX_BYTES("flushIndexBytes"),
    /**
     * TRIAD-LOG: bytes of the log segments flushes made into level-0 components (written by the
     * log, not by the flush). Manifests written before it existed read as 0.
     */
    FLUSH_LOG_BYTES("triad.flushLogBytes");

    final String manifestName;

    Counter(String manifestName) {
      this.manifestName = manifestName;
    }
  }

  private final long[] counters = new long[Counter.values().length];
  private final StallTracker stalls;
  private final ArrayDeque<MergeRecord> mergeLog = new ArrayDeque<>();
  /** Bytes merges wrote, by output level; persisted as {@code bytesMerged.level.<n>}. */
  private final TreeMap<Integer, Long> mergedByLevel = new TreeMap<>();
  /**
   * Bytes of the leaf pages merges wrote, by output level; persisted as {@code
   * bytesMergedData.level.<n>} (a store written before this counter existed reads 0).
   */
  private final TreeMap<Integer, Long> mergedDataByLevel = new TreeMap<>();
  /** Merges completed, by output level; persisted as {@code merges.level.<n>}. */
  private final TreeMap<Integer, Long> mergesByLevel = new TreeMap<>();
  /** Bytes of those merges' input components; {@code bytesReadMerged.level.<n>}. */
  private final TreeMap<Integer, Long> readByLevel = new TreeMap<>();
  /** Milliseconds those merges ran; {@code mergeMillis.level.<n>}. */
  private final TreeMap<Integer, Long> millisByLevel = new TreeMap<>();
  /** Durations since this open (not persisted). */
  private final DurationHistogram.Counts flushDurations = new DurationHistogram.Counts();
  private final DurationHistogram.Counts mergeDurations = new DurationHistogram.Counts();
  /** Bytes the log has appended since this open (none for a dataset's index). */
  private LongSupplier logBytesSinceOpen = () -> 0;

  /**
   * What the merge policy saved ({@link org.strata.lsm.spi.MergeContext#savePolicyState});
   * persisted as {@code policy.<key>}. Manifests written before it existed hold none.
   */
  private Map<String, Long> policyState = Map.of();

  private static final String POLICY_PREFIX = "policy.";
  private static final String MERGED_LEVEL_PREFIX = "bytesMerged.level.";
  private static final String MERGED_DATA_LEVEL_PREFIX = "bytesMergedData.level.";
  private static final String MERGES_LEVEL_PREFIX = "merges.level.";
  private static final String READ_LEVEL_PREFIX = "bytesReadMerged.level.";
  private static final String MILLIS_LEVEL_PREFIX = "mergeMillis.level.";

  /**
   * @param store how events name the store or index (its directory name)
   * @param stallEnded told of each write stall as it ends
   */
  EngineStats(String store, StallTracker.Ended stallEnded) {
    this.stalls = new StallTracker(store, stallEnded);
  }

  /** Where the bytes appended to the log since this open are read. */
  void logBytesSinceOpen(LongSupplier s) {
    logBytesSinceOpen = s;
  }

  /** Restores the counters and stall totals from a manifest's counter map. */
  void restore(Map<String, Long> saved) {
    for (Counter c : Counter.values()) {
      counters[c.ordinal()] = saved.getOrDefault(c.manifestName, 0L);
    }
    for (Map.Entry<String, Long> e : saved.entrySet()) {
      if (e.getKey().startsWith(MERGED_LEVEL_PREFIX)) {
        mergedByLevel.put(Integer.parseInt(e.getKey().substring(MERGED_LEVEL_PREFIX.length())),
            e.getValue());
      } else if (e.getKey().startsWith(MERGED_DATA_LEVEL_PREFIX)) {
        mergedDataByLevel.put(Integer.parseInt(
            e.getKey().substring(MERGED_DATA_LEVEL_PREFIX.length())), e.getValue());
      } else if (e.getKey().startsWith(MERGES_LEVEL_PREFIX)) {
        mergesByLevel.put(level(e.getKey(), MERGES_LEVEL_PREFIX), e.getValue());
      } else if (e.getKey().startsWith(READ_LEVEL_PREFIX)) {
        readByLevel.put(level(e.getKey(), READ_LEVEL_PREFIX), e.getValue());
      } else if (e.getKey().startsWith(MILLIS_LEVEL_PREFIX)) {
        millisByLevel.put(level(e.getKey(), MILLIS_LEVEL_PREFIX), e.getValue());
      }
    }
    Map<String, Long> policy = new TreeMap<>();
    saved.forEach((k, v) -> {
      if (k.startsWith(POLICY_PREFIX)) {
        policy.put(k.substring(POLICY_PREFIX.length()), v);
      }
    });
    policyState = Map.copyOf(policy);
    for (StallCause s : StallCause.values()) {
      stalls.restore(s, saved.getOrDefault(countKey(s), 0L), saved.getOrDefault(nanosKey(s), 0L));
    }
  }

  private static int level(String key, String prefix) {
    return Integer.parseInt(key.substring(prefix.length()));
  }

  /** The counter map the manifest stores. */
  Map<String, Long> persisted() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (Counter c : Counter.values()) {
      m.put(c.manifestName, counters[c.ordinal()]);
    }
    m.put(Counter.LOG_BYTES.manifestName, logBytes());
    for (Map.Entry<Integer, Long> e : mergedByLevel.entrySet()) {
      m.put(MERGED_LEVEL_PREFIX + e.getKey(), e.getValue());
    }
    for (Map.Entry<Integer, Long> e : mergedDataByLevel.entrySet()) {
      m.put(MERGED_DATA_LEVEL_PREFIX + e.getKey(), e.getValue());
    }
    mergesByLevel.forEach((l, v) -> m.put(MERGES_LEVEL_PREFIX + l, v));
    readByLevel.forEach((l, v) -> m.put(READ_LEVEL_PREFIX + l, v));
    millisByLevel.forEach((l, v) -> m.put(MILLIS_LEVEL_PREFIX + l, v));
    for (StallCause s : StallCause.values()) {
      m.put(countKey(s), stalls.count(s));
      m.put(nanosKey(s), stalls.nanos(s));
    }
    new TreeMap<>(policyState).forEach((k, v) -> m.put(POLICY_PREFIX + k, v));
    return m;
  }

  private static String countKey(StallCause s) {
    return "stalls." + s.jsonName() + ".count";
  }

  private static String nanosKey(StallCause s) {
    return "stalls." + s.jsonName() + ".nanos";
  }

  /** What the merge policy saved last, keys without the manifest's prefix. */
  Map<String, Long> policyState() {
    return policyState;
  }

  /** Replaces the merge policy's saved state (an immutable map). */
  void policyState(Map<String, Long> state) {
    policyState = state;
  }

  long get(Counter c) {
    return counters[c.ordinal()];
  }

  private long logBytes() {
    return counters[Counter.LOG_BYTES.ordinal()] + logBytesSinceOpen.getAsLong();
  }

  /**
   * Counts a flush of {@code userBytes} of writes into files of {@code fileBytes}, {@code
   * dataBytes} of them leaf pages, over log segments of {@code logBytes} (TRIAD-LOG; else 0).
   */
  void flushed(long userBytes, long fileBytes, long dataBytes, long logBytes) {
    counters[Counter.FLUSH_DATA_BYTES.ordinal()] += dataBytes;
    counters[Counter.FLUSH_LOG_BYTES.ordinal()] += logBytes;
    counters[Counter.FLUSH_INDEX_BYTES.ordinal()] += fileBytes - dataBytes;
    counters[Counter.USER_BYTES_FLUSHED.ordinal()] += userBytes;
    counters[Counter.BYTES_FLUSHED.ordinal()] += fileBytes;
    counters[Counter.FLUSHES.ordinal()]++;
    counters[Counter.LARGEST_FLUSH.ordinal()] =
        Math.max(counters[Counter.LARGEST_FLUSH.ordinal()], fileBytes);
  }

  /** Counts how long a flush took, from holding the log to its durable manifest. */
  void flushTook(long nanos) {
    flushDurations.add(Math.max(0, nanos) / 1e9);
  }

  /** Counts a flush TRIAD-MEM skipped: the component's {@code userBytes} retire without a file. */
  void flushSkipped(long userBytes) {
    counters[Counter.USER_BYTES_FLUSHED.ordinal()] += userBytes;
    counters[Counter.FLUSHES_SKIPPED.ordinal()]++;
  }

  /** Counts entries TRIAD-MEM carried into the next memory component and logged again. */
  void relogged(long entries, long bytes) {
    counters[Counter.RELOGGED_ENTRIES.ordinal()] += entries;
    counters[Counter.RELOGGED_BYTES.ordinal()] += bytes;
  }

  /**
   * Counts a completed merge that read {@code inputBytes} (its input components' bytes) and
   * wrote {@code bytes}, {@code dataBytes} of them leaf pages.
   */
  void merged(long bytes, long dataBytes, long inputBytes, MergeRecord record) {
    if (record != null) {
      mergedByLevel.merge(record.outputLevel(), bytes, Long::sum);
      mergedDataByLevel.merge(record.outputLevel(), dataBytes, Long::sum);
      mergesByLevel.merge(record.outputLevel(), 1L, Long::sum);
      readByLevel.merge(record.outputLevel(), inputBytes, Long::sum);
      millisByLevel.merge(record.outputLevel(),
          Math.max(0, record.endMillis() - record.startMillis()), Long::sum);
      mergeDurations.add(Math.max(0, record.endMillis() - record.startMillis()) / 1000.0);
    }
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
        backgroundError == null ? null : backgroundError.toString(),
        new ByteCounters(userFlushed + memUser, logBytes(), get(Counter.RELOGGED_ENTRIES),
            get(Counter.RELOGGED_BYTES), get(Counter.FLUSHES_SKIPPED),
            get(Counter.FLUSH_DATA_BYTES), get(Counter.FLUSH_INDEX_BYTES), mergedByLevel,
            get(Counter.FLUSH_LOG_BYTES), mergedDataByLevel), levelMerges(),
        flushDurations.snapshot(), mergeDurations.snapshot());
  }

  /** The merges by output level, as {@link StoreStats#mergesByLevel()} reports them. */
  private SortedMap<Integer, LevelMerges> levelMerges() {
    SortedMap<Integer, LevelMerges> out = new TreeMap<>();
    for (Integer l : mergesByLevel.keySet()) {
      out.put(l, new LevelMerges(mergesByLevel.get(l), readByLevel.getOrDefault(l, 0L),
          mergedByLevel.getOrDefault(l, 0L), millisByLevel.getOrDefault(l, 0L) / 1000.0));
    }
    return out;
  }
}
