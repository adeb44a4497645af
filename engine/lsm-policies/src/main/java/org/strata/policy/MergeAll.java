package org.strata.policy;

import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/** The full merge shared by policies: every run into one, when none is merging. */
final class MergeAll {
  private MergeAll() {}

  /** A merge of all runs (at least two, or one with several files) if none is merging. */
  static List<MergeRequest> mergeAllIfIdle(MergeContext index) {
    List<RunInfo> runs = index.runs();
    if (runs.isEmpty() || runs.size() == 1 && runs.get(0).components().size() == 1) {
      return List.of();
    }
    for (RunInfo r : runs) {
      if (r.merging()) {
        return List.of();
      }
    }
    return List.of(MergeRequest.ofRuns(runs, 0));
  }
}
