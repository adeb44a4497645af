package org.strata.policy;

import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;

/**
 * Never merges on its own; honours an explicit full-merge request (a user's compaction) by merging
 * every run. Never lags, so it never stalls writers. Stable, lazy, static.
 */
public final class NoMergePolicy implements MergePolicy {
  @Override
  public void diskComponentAdded(MergeContext index, boolean fullMergeRequested) {
    if (fullMergeRequested) {
      MergeAll.mergeAllIfIdle(index);
    }
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    return false;
  }
}
