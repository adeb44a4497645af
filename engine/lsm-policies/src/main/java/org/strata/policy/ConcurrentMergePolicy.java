package org.strata.policy;

import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/**
 * AsterixDB's {@code concurrent} merge policy, the default of AsterixDB 0.9.8 and 0.9.9 (Hyracks'
 * {@code ConcurrentMergePolicy}), with AsterixDB's parameter names and defaults. It chooses merges
 * by the same window rule as {@link SizeTieredMergePolicy}: over the newest runs that are not
 * merging, windows ending at the oldest candidate are tried first, and a window of at most {@code
 * max-merge-component-count} runs (at least {@code min-merge-component-count}) is merged when its
 * oldest run is at most {@code size-ratio} times the sum of the younger runs in it.
 *
 * <p>It differs from {@code size-tiered} where AsterixDB's class does:
 *
 * <ul>
 *   <li>writes wait from {@code max-component-count} disk components on (AsterixDB stops flushes
 *       at that count while a merge runs), not above it;
 *   <li>at that count with no merge running and no window to merge (a recovered index, or a count
 *       set too low), every run is merged into one, AsterixDB's guard against waiting forever.
 *       This policy merges as soon as the count is reached (the engine asks for merges after every
 *       flush and merge); AsterixDB's class only when it is asked whether merges lag, which
 *       Hyracks does as the next flush ends, before that flush's component joins: one flush
 *       later, as {@code AsterixDbConcurrentOnHyracksTest} shows;
 *   <li>a requested full merge waits until no merge runs (AsterixDB ignores it while one does).
 * </ul>
 *
 * <p>Dynamic, lazy, several merges at once on disjoint runs. Component constraint: {@code
 * max-component-count}.
 */
public final class ConcurrentMergePolicy implements MergePolicy {
  private final SizeTieredMergePolicy windows;
  private final int maxComponents;

  /**
   * @param ratio {@code size-ratio}
   * @param minMerge {@code min-merge-component-count}
   * @param maxMerge {@code max-merge-component-count}
   * @param maxComponents {@code max-component-count}
   */
  public ConcurrentMergePolicy(double ratio, int minMerge, int maxMerge, int maxComponents) {
    this.windows = new SizeTieredMergePolicy(ratio, minMerge, maxMerge, maxComponents, false);
    this.maxComponents = maxComponents;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    if (fullMergeRequested) {
      return StackPolicies.anyMerging(runs) ? List.of() : StackPolicies.mergeDownTo(runs, 1);
    }
    List<MergeRequest> merges = windows.findMerges(index, false);
    if (merges.isEmpty() && index.diskComponentCount() >= maxComponents && runs.size() > 1
        && !StackPolicies.anyMerging(runs)) {
      return StackPolicies.mergeDownTo(runs, 1);
    }
    return merges;
  }

  @Override
  public int componentConstraint() {
    return maxComponents;
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    return index.diskComponentCount() >= maxComponents && StackPolicies.anyMerging(index.runs());
  }
}
