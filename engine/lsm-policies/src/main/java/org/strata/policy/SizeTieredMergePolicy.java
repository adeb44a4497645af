package org.strata.policy;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/**
 * The size-tiered policy of HBase and AsterixDB's {@code concurrent} policy, as Luo & Carey use it
 * (docs/papers/luo-carey.md#size-tiered). Over the longest newest-first prefix of runs that are not
 * merging, it tries windows ending at the oldest candidate first: a window of up to {@code
 * max-merge} runs (at least {@code min-merge}) is merged when its oldest run is at most {@code
 * size-ratio} times the sum of the younger runs in the window. This is the upstream reading of the
 * paper's "younger total is T times larger than the oldest", which that page follows.
 *
 * <p>With {@code merge-exactly-min} every merge takes exactly {@code min-merge} runs: the paper's
 * fix that measures a sustainable lower bound of write throughput in the testing phase.
 *
 * <p>Dynamic (depends on sizes), not stable in the Mao et al. sense, lazy; several merges may run
 * at once on disjoint runs. Component constraint: {@code max-component-count} (50 in the paper);
 * writes stall above it while a merge runs.
 */
public final class SizeTieredMergePolicy implements MergePolicy {
  private final double ratio;
  private final int minMerge;
  private final int maxMerge;
  private final int maxComponents;
  private final boolean exactlyMin;

  public SizeTieredMergePolicy(double ratio, int minMerge, int maxMerge, int maxComponents,
      boolean exactlyMin) {
    this.ratio = ratio;
    this.minMerge = minMerge;
    this.maxMerge = maxMerge;
    this.maxComponents = maxComponents;
    this.exactlyMin = exactlyMin;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    if (fullMergeRequested) {
      return StackPolicies.mergeDownTo(runs, 1);
    }
    int count = 0;
    while (count < runs.size() && !runs.get(count).merging()) {
      count++;
    }
    if (count < minMerge) {
      return List.of();
    }
    int window = exactlyMin ? minMerge : maxMerge;
    for (int end = count - 1; end >= minMerge - 1; end--) {
      int start = Math.max(end - window + 1, 0);
      long younger = 0;
      for (int i = start; i < end; i++) {
        younger += runs.get(i).sizeBytes();
      }
      if (runs.get(end).sizeBytes() <= ratio * younger) {
        return List.of(MergeRequest.ofRuns(new ArrayList<>(runs.subList(start, end + 1)), 0));
      }
    }
    return List.of();
  }

  @Override
  public int componentConstraint() {
    return maxComponents;
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    List<RunInfo> runs = index.runs();
    return index.diskComponentCount() > maxComponents && StackPolicies.anyMerging(runs);
  }
}
