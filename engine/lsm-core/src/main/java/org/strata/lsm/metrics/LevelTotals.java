package org.strata.lsm.metrics;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.strata.lsm.spi.RunInfo;

/**
 * The runs, disk components and bytes a tree holds at one level now, as the metrics and the
 * compaction-stats table show them.
 */
record LevelTotals(long runs, long components, long bytes) {
  /** The totals of {@code runs} by level, ascending; levels without a run are absent. */
  static SortedMap<Integer, LevelTotals> of(List<RunInfo> runs) {
    SortedMap<Integer, LevelTotals> out = new TreeMap<>();
    for (RunInfo r : runs) {
      out.merge(r.level(), new LevelTotals(1, r.components().size(), r.sizeBytes()),
          (a, b) -> new LevelTotals(a.runs + b.runs, a.components + b.components,
              a.bytes + b.bytes));
    }
    return out;
  }
}
