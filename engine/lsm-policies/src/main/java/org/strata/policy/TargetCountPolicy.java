package org.strata.policy;

import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/**
 * A static policy that, after flush t, keeps the i(t) oldest runs and merges every newer one into
 * one (MINLATENCY and BINOMIAL). t is the flush ordinal of the newest run, its maximum component
 * id. Decisions are idempotent, so the calls that follow merges change nothing; while a run it
 * would merge is merging, the policy waits for the next call.
 */
abstract class TargetCountPolicy extends BoundedDepthPolicy {
  TargetCountPolicy(int k) {
    super(k);
  }

  /** The number of runs to keep after flush t (t >= 1). */
  abstract int target(long t);

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    if (fullMergeRequested) {
      return StackPolicies.mergeDownTo(runs, 1);
    }
    long t = StackPolicies.newestFlush(runs);
    if (t <= 0) {
      return List.of();
    }
    int keep = target(t);
    return runs.size() > keep ? StackPolicies.mergeDownTo(runs, keep) : List.of();
  }
}
