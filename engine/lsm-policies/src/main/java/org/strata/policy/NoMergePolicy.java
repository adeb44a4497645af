package org.strata.policy;

import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;

/**
 * Never merges on its own; honours an explicit full-merge request (a user's compaction) by merging
 * every run. Never lags, so it never stalls writers. Stable, lazy, static.
 */
public final class NoMergePolicy implements MergePolicy {
  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    return fullMergeRequested ? MergeAll.mergeAllIfIdle(index) : List.of();
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    return false;
  }
}
