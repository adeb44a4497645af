package org.strata.policy;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/**
 * AsterixDB's {@code size-bounded-concurrent} merge policy, the default of AsterixDB's master
 * branch since ASTERIXDB-3394 (not in a release as of 0.9.9): {@code concurrent}'s window rule
 * with a bound on the merged size, {@code max-component-size} (AsterixDB's {@code
 * storage.max.component.size}, 1 TB by default).
 *
 * <p>Over the newest runs that are not merging, windows ending at the oldest candidate are tried
 * first. From the window's oldest run, younger runs are added one at a time, at most {@code
 * max-merge-component-count} of them (so a window holds up to that count plus one runs, as
 * AsterixDB's code reads); when the total reaches {@code max-component-size} the run that reached
 * it is left out and the window ends there. The window is merged when it holds at least {@code
 * min-merge-component-count} runs and {@code size-ratio} times its younger runs' total is at least
 * its oldest run. A run at or above the bound is therefore never merged again.
 *
 * <p>Writes wait while a merge runs and the runs that some window could merge (counted over
 * disjoint windows, oldest first) number {@code max-component-count} or more; runs too large to
 * merge are not counted, so the policy implies no bound on the component count. A full merge is
 * never run: AsterixDB's class refuses the request, this one ignores it.
 */
public final class SizeBoundedConcurrentMergePolicy implements MergePolicy {
  private final double ratio;
  private final int minMerge;
  private final int maxMerge;
  private final int maxComponents;
  private final long maxComponentSize;

  /**
   * @param ratio {@code size-ratio}
   * @param minMerge {@code min-merge-component-count}
   * @param maxMerge {@code max-merge-component-count}
   * @param maxComponents {@code max-component-count}
   * @param maxComponentSize {@code max-component-size} in bytes
   */
  public SizeBoundedConcurrentMergePolicy(double ratio, int minMerge, int maxMerge,
      int maxComponents, long maxComponentSize) {
    this.ratio = ratio;
    this.minMerge = minMerge;
    this.maxMerge = maxMerge;
    this.maxComponents = maxComponents;
    this.maxComponentSize = maxComponentSize;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    if (fullMergeRequested) {
      return List.of();
    }
    List<RunInfo> runs = index.runs();
    int[] window = new int[2];
    if (scan(runs, false, window) == 0) {
      return List.of();
    }
    return List.of(MergeRequest.ofRuns(new ArrayList<>(runs.subList(window[0], window[1] + 1)),
        0));
  }

  /**
   * Walks the windows, oldest end first. With {@code count} false it stops at the first window
   * that may merge, stores its first and last index (newest first) in {@code found} and returns
   * its length, or returns 0 if there is none; with {@code count} true it returns how many runs
   * the disjoint windows that may merge hold.
   */
  int scan(List<RunInfo> runs, boolean count, int[] found) {
    int candidates = 0;
    while (candidates < runs.size() && !runs.get(candidates).merging()) {
      candidates++;
    }
    if (candidates < minMerge) {
      return 0;
    }
    int total = 0;
    int end = candidates - 1;
    while (end >= minMerge - 1) {
      long oldest = runs.get(end).sizeBytes();
      long younger = 0;
      int leftmost = Math.max(end - maxMerge, 0);
      int start = end;
      boolean bounded = false;
      for (int i = end - 1; i >= leftmost; i--) {
        long size = runs.get(i).sizeBytes();
        if (oldest + younger + size >= maxComponentSize) {
          bounded = true;
          break;
        }
        younger += size;
        start = i;
      }
      if (!bounded) {
        start = leftmost;
      }
      int length = end - start + 1;
      if (length >= minMerge && younger * ratio >= oldest) {
        if (!count) {
          found[0] = start;
          found[1] = end;
          return length;
        }
        total += length;
        end = bounded ? start - 1 : leftmost - 1;
      } else {
        end--;
      }
    }
    return total;
  }

  @Override
  public int componentConstraint() {
    return Integer.MAX_VALUE;
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    List<RunInfo> runs = index.runs();
    return StackPolicies.anyMerging(runs) && scan(runs, true, null) >= maxComponents;
  }
}
