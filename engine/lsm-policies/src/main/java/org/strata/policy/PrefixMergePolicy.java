package org.strata.policy;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/**
 * AsterixDB's {@code prefix} policy, described here from its documented behaviour (it is outside
 * the papers and not a reproduction target: docs/papers/README.md#outside-the-papers). Runs larger
 * than {@code max-mergable-component-size} are never merged. Looking from the oldest mergeable run
 * toward the newest, it merges the shortest sequence whose total size exceeds the maximum mergeable
 * size; if there is none, it merges the whole newest stretch of mergeable runs once it holds at
 * least {@code max-tolerance-component-count} runs. Either way the oldest run of the sequence must
 * be smaller than 1.2 times the sum of the younger ones (HBase's ratio, fixed as in AsterixDB), or
 * the search moves on to the next oldest run.
 *
 * <p>Dynamic, lazy, one merge at a time. Component constraint: writes wait while the mergeable runs
 * reach the tolerance count and a merge runs; {@link #componentConstraint()} reports twice the
 * tolerance plus one for the runs above the size cap.
 */
public final class PrefixMergePolicy implements MergePolicy {
  static final double RATIO = 1.2;

  private final long maxMergeableSize;
  private final int tolerance;

  public PrefixMergePolicy(long maxMergeableSize, int tolerance) {
    this.maxMergeableSize = maxMergeableSize;
    this.tolerance = tolerance;
  }

  private boolean mergeable(RunInfo r) {
    return !r.merging() && r.sizeBytes() <= maxMergeableSize;
  }

  /** Oldest-first [from, to] positions of the sequence to merge, or null. */
  int[] choose(List<RunInfo> oldestFirst) {
    int n = oldestFirst.size();
    for (int i = 0; i < n; i++) {
      if (!mergeable(oldestFirst.get(i))) {
        continue;
      }
      long first = oldestFirst.get(i).sizeBytes();
      long younger = 0;
      int j = i + 1;
      for (; j < n && mergeable(oldestFirst.get(j)); j++) {
        younger += oldestFirst.get(j).sizeBytes();
        if (first + younger > maxMergeableSize && first < RATIO * younger) {
          return new int[] {i, j};
        }
      }
      boolean reachedNewest = j == n;
      if (reachedNewest && n - i >= tolerance && first < RATIO * younger) {
        return new int[] {i, n - 1};
      }
      if (reachedNewest && n - i < tolerance) {
        return null; // fewer candidates than the tolerance remain
      }
    }
    return null;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    if (StackPolicies.anyMerging(runs)) {
      return List.of();
    }
    if (fullMergeRequested) {
      return StackPolicies.mergeDownTo(runs, 1);
    }
    List<RunInfo> oldestFirst = new ArrayList<>(runs);
    java.util.Collections.reverse(oldestFirst);
    int[] w = choose(oldestFirst);
    return w == null ? List.of() : StackPolicies.mergeOldestFirstRange(runs, w[0], w[1] + 1);
  }

  /**
   * The number of runs the policy would merge now: the length of the sequence {@link #choose}
   * finds among runs that are not merging and not above the size cap, 0 if none (AsterixDB counts
   * its "mergeable immutable components" the same way, so runs already being merged do not count).
   */
  private int mergeableCount(List<RunInfo> runs) {
    List<RunInfo> oldestFirst = new ArrayList<>(runs);
    java.util.Collections.reverse(oldestFirst);
    int[] w = choose(oldestFirst);
    return w == null ? 0 : w[1] - w[0] + 1;
  }

  @Override
  public int componentConstraint() {
    return 2 * tolerance + 1;
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    List<RunInfo> runs = index.runs();
    return mergeableCount(runs) >= tolerance && StackPolicies.anyMerging(runs);
  }
}
