package org.strata.cli;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/**
 * Test policy {@code test-two-merges}: whenever at least four runs exist and none is merging, it
 * schedules two merges at once, of the two newest and of the two oldest runs, so a concurrent
 * scheduler always has two merges writing together.
 */
public final class TwoMergesPolicy implements MergePolicy {
  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    if (runs.size() < 4 || runs.stream().anyMatch(RunInfo::merging)) {
      return List.of();
    }
    return List.of(MergeRequest.ofRuns(runs.subList(0, 2), 0),
        MergeRequest.ofRuns(runs.subList(runs.size() - 2, runs.size()), 0));
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    return false;
  }

  /** The factory. */
  public static final class Factory implements MergePolicyFactory {
    @Override
    public String name() {
      return "test-two-merges";
    }

    @Override
    public Set<String> parameterNames() {
      return Set.of();
    }

    @Override
    public MergePolicy create(Map<String, String> parameters) {
      return new TwoMergesPolicy();
    }
  }
}
