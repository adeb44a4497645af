package org.strata.policy;

import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.RunInfo;

/**
 * What Mao et al.'s bounded-depth policies share: the depth bound k and the component constraint
 * of twice the bound (Luo & Carey 5.1.1): writes wait while there are more than 2k runs and a merge
 * runs.
 */
abstract class BoundedDepthPolicy implements MergePolicy {
  /** The depth bound k. */
  protected final int k;

  BoundedDepthPolicy(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1");
    }
    this.k = k;
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
