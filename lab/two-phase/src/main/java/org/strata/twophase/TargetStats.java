package org.strata.twophase;

import java.util.LinkedHashMap;
import java.util.Map;
import org.strata.lsm.StoreStats.StallTotals;

/**
 * A snapshot of what a system under test reports, cumulative since it was opened (docs/compare.md
 * says where each figure comes from for each system).
 *
 * @param diskComponents disk components (Strata: component files of all trees; RocksDB: SST files
 *     of all levels; Hyracks: disk components of the tree)
 * @param bytesFlushed bytes written by flushes
 * @param bytesMerged bytes written by merges (compactions)
 * @param userBytes user bytes the write amplification is divided by (Strata: key and value bytes
 *     of the flushed writes, the engine's definition; peers: key and value bytes of every write
 *     they accepted)
 * @param stallCount write stalls that have started
 * @param stallSeconds seconds writers spent stalled
 * @param stalledNow true if writes are stopped at this instant
 * @param pendingMergeBytes merge input bytes scheduled but not yet merged (RocksDB: its estimate
 *     of pending compaction bytes)
 * @param spaceBytes bytes of the disk components (the space used)
 * @param stallsByCause stalls split by cause, where the system says (may be empty)
 * @param shape a short description of the tree's shape (e.g. files per level), for reports
 * @param ioCounters cumulative counters of where the I/O budget went, by name (Strata: its
 *     throttle's {@code IoBudgetCounters}; empty for systems that do not report them)
 * @param design the merge policy's current design as {@code T=.. K=.. Z=..} where it can change
 *     (Strata's {@code adaptive-fluid}); empty otherwise
 */
public record TargetStats(long diskComponents, long bytesFlushed, long bytesMerged,
    long userBytes, long stallCount, double stallSeconds, boolean stalledNow,
    long pendingMergeBytes, long spaceBytes, Map<String, StallTotals> stallsByCause,
    String shape, Map<String, Long> ioCounters, String design) {

  public TargetStats {
    stallsByCause = Map.copyOf(stallsByCause);
    design = design == null ? "" : design;
    ioCounters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ioCounters));
  }

  /** A snapshot without I/O budget counters. */
  public TargetStats(long diskComponents, long bytesFlushed, long bytesMerged,
      long userBytes, long stallCount, double stallSeconds, boolean stalledNow,
      long pendingMergeBytes, long spaceBytes, Map<String, StallTotals> stallsByCause,
      String shape) {
    this(diskComponents, bytesFlushed, bytesMerged, userBytes, stallCount, stallSeconds,
        stalledNow, pendingMergeBytes, spaceBytes, stallsByCause, shape, Map.of(), "");
  }

  /** This snapshot with {@code counters} as its I/O budget counters. */
  public TargetStats withIoCounters(Map<String, Long> counters) {
    return new TargetStats(diskComponents, bytesFlushed, bytesMerged, userBytes, stallCount,
        stallSeconds, stalledNow, pendingMergeBytes, spaceBytes, stallsByCause, shape, counters,
        design);
  }

  /** This snapshot with the merge policy's current design ({@code T=.. K=.. Z=..}). */
  public TargetStats withDesign(String current) {
    return new TargetStats(diskComponents, bytesFlushed, bytesMerged, userBytes, stallCount,
        stallSeconds, stalledNow, pendingMergeBytes, spaceBytes, stallsByCause, shape, ioCounters,
        current);
  }

  /** Write amplification of what happened between {@code before} and this snapshot. */
  public double writeAmplificationSince(TargetStats before) {
    long user = userBytes - before.userBytes;
    long written = bytesFlushed - before.bytesFlushed + bytesMerged - before.bytesMerged;
    return user <= 0 ? 0 : (double) written / user;
  }

  /** Stalls by cause between {@code before} and this snapshot, in a stable order. */
  public Map<String, StallTotals> stallsSince(TargetStats before) {
    Map<String, StallTotals> m = new LinkedHashMap<>();
    new java.util.TreeMap<>(stallsByCause).forEach((cause, a) -> {
      StallTotals b = before.stallsByCause.getOrDefault(cause, new StallTotals(0, 0));
      m.put(cause, new StallTotals(a.count() - b.count(), a.seconds() - b.seconds()));
    });
    return m;
  }
}
