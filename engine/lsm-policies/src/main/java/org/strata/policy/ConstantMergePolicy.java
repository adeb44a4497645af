package org.strata.policy;

import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergeRequest;

/**
 * Mao et al.'s CONSTANT policy (AsterixDB before 0.9.4): keep at most k disk components. When a
 * flush brings the count above k, merge every component into one. (The paper phrases it as
 * merging the memory component with all k components at flush time; an engine that flushes
 * first and then merges the k + 1 components writes the same merged component.)
 *
 * <p>Parameter {@code num-components} (k, default 5, at least 1). Lazy (never merges while the
 * count is at most k), static, stable. Its component constraint: writes wait while the count is
 * above 2k and a merge is running (Luo & Carey's "2 x expected").
 */
public final class ConstantMergePolicy extends BoundedDepthPolicy {

  /** @param k the maximum number of disk components kept between merges */
  public ConstantMergePolicy(int k) {
    super(k);
  }

  public int numComponents() {
    return k;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    if (fullMergeRequested || index.diskComponentCount() > k) {
      return MergeAll.mergeAllIfIdle(index);
    }
    return List.of();
  }
}
