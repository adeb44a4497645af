package org.strata.policy;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/** Helpers shared by the stack-based (one component per run) policies of Mao et al. */
final class StackPolicies {
  private StackPolicies() {}

  /** True if any run is an input of a merge. */
  static boolean anyMerging(List<RunInfo> runs) {
    for (RunInfo r : runs) {
      if (r.merging()) {
        return true;
      }
    }
    return false;
  }

  /** Run sizes ordered oldest to newest, the order of the papers' pseudo-code. */
  static long[] sizesOldestFirst(List<RunInfo> newestFirst) {
    int n = newestFirst.size();
    long[] s = new long[n];
    for (int i = 0; i < n; i++) {
      s[i] = newestFirst.get(n - 1 - i).sizeBytes();
    }
    return s;
  }

  /**
   * Merges the runs at oldest-first positions [from, to) (to exclusive), if that is at least two
   * runs and none is merging.
   */
  static List<MergeRequest> mergeOldestFirstRange(List<RunInfo> newestFirst, int from, int to) {
    int n = newestFirst.size();
    if (to - from < 2 || from < 0 || to > n) {
      return List.of();
    }
    List<RunInfo> window = new ArrayList<>(newestFirst.subList(n - to, n - from));
    if (anyMerging(window)) {
      return List.of();
    }
    return List.of(MergeRequest.ofRuns(window, 0));
  }

  /** Keeps the {@code keep} oldest runs as they are and merges every newer run into one. */
  static List<MergeRequest> mergeDownTo(List<RunInfo> newestFirst, int keep) {
    return mergeOldestFirstRange(newestFirst, keep - 1, newestFirst.size());
  }

  /** The flush ordinal of the newest run (component ids are flush ordinals), 0 if none. */
  static long newestFlush(List<RunInfo> newestFirst) {
    return newestFirst.isEmpty() ? 0 : newestFirst.get(0).maxComponentId();
  }
}
