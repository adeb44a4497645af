package org.strata.policy;

import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.RunInfo;

/**
 * Mathieu et al.'s MINLATENCY policy as evaluated by Mao et al. (spec A3.5): with m' = min{m :
 * C(m+k, m) > t} and i = B(m', k, t), after flush t merge the i-th oldest run with every newer one,
 * leaving i runs. Static, stable, eager, lazy. t is the flush ordinal of the newest run. Decisions
 * are idempotent. Component constraint: lags while there are more than 2k runs and a merge runs.
 */
public final class MinLatencyMergePolicy implements MergePolicy {
  private final int k;

  public MinLatencyMergePolicy(int k) {
    this.k = k;
  }

  /** The number of runs to keep after flush t. */
  int target(long t) {
    int m = 0;
    while (Binomials.choose((long) m + k, m) <= t) {
      m++;
    }
    return Binomials.utility(m, k, t);
  }

  @Override
  public void diskComponentAdded(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    if (fullMergeRequested) {
      StackPolicies.mergeDownTo(index, runs, 1);
      return;
    }
    long t = StackPolicies.newestFlush(runs);
    if (t <= 0) {
      return;
    }
    int keep = target(t);
    if (runs.size() > keep) {
      StackPolicies.mergeDownTo(index, runs, keep);
    }
  }

  @Override
  public int componentConstraint() {
    return 2 * k;
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    List<RunInfo> runs = index.runs();
    return runs.size() > 2 * k && StackPolicies.anyMerging(runs);
  }
}
