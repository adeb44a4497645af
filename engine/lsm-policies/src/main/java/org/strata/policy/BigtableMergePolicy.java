package org.strata.policy;

import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/**
 * The BIGTABLE policy (Mathieu et al.'s description; docs/papers/mao.md#bigtable): while there are
 * at most k runs, do nothing; otherwise merge the newest runs from the oldest position j whose size
 * is at most the sum of all newer runs ("exceeds" read strictly, as that page explains), or the two
 * newest if no such j exists. Dynamic (depends on sizes), lazy. Idempotent: after its merge at most
 * k runs are left. Component constraint: lags while there are more than 2k runs and a merge runs.
 */
public final class BigtableMergePolicy extends BoundedDepthPolicy {
  public BigtableMergePolicy(int k) {
    super(k);
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    if (fullMergeRequested) {
      return StackPolicies.mergeDownTo(runs, 1);
    }
    int n = runs.size();
    if (n <= k) {
      return List.of();
    }
    long[] s = StackPolicies.sizesOldestFirst(runs);
    long[] suffix = new long[n + 1];
    for (int i = n - 1; i >= 0; i--) {
      suffix[i] = suffix[i + 1] + s[i];
    }
    int j = n - 2;
    for (int i = 0; i <= n - 2; i++) {
      if (s[i] <= suffix[i + 1]) {
        j = i;
        break;
      }
    }
    return StackPolicies.mergeOldestFirstRange(runs, j, n);
  }
}
