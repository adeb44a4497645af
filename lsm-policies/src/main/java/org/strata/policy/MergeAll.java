package org.strata.policy;

import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.RunInfo;

/** The full merge shared by policies: every run into one, when none is merging. */
final class MergeAll {
  private MergeAll() {}

  /** Schedules a merge of all runs (at least two, or one with several files); returns whether. */
  static boolean mergeAllIfIdle(MergeContext index) {
    List<RunInfo> runs = index.runs();
    if (runs.isEmpty() || runs.size() == 1 && runs.get(0).components().size() == 1) {
      return false;
    }
    for (RunInfo r : runs) {
      if (r.merging()) {
        return false;
      }
    }
    return index.scheduleMerge(runs, 0);
  }
}
