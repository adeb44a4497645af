package org.strata.policy;

import java.util.List;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/**
 * HBase's EXPLORING policy as Mao et al. read it (docs/papers/mao.md#exploring, the paper-literal
 * version): after a flush, among contiguous windows of C..D runs (inclusive) whose largest run is
 * at most lambda times the sum of the others, merge the longest window when there are at most k
 * runs, else the one with the smallest average run size; if no window qualifies and there are more
 * than k runs, merge the C consecutive runs of smallest total size. Tie-breaks are that page's.
 *
 * <p>Not idempotent, so it acts once per flush: it remembers the last flush ordinal it handled and
 * ignores calls that follow merges, unless a merge in progress made it skip that flush. Dynamic,
 * not eager (the window need not contain the flush). Component constraint: lags while there are
 * more than 2k runs and a merge runs.
 */
public final class ExploringMergePolicy extends BoundedDepthPolicy {
  private final int minWindow;
  private final int maxWindow;
  private final double ratio;
  private long handledFlush;

  public ExploringMergePolicy(int k, int minWindow, int maxWindow, double ratio) {
    super(k);
    this.minWindow = minWindow;
    this.maxWindow = maxWindow;
    this.ratio = ratio;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    if (fullMergeRequested) {
      return StackPolicies.mergeDownTo(runs, 1);
    }
    long t = StackPolicies.newestFlush(runs);
    if (t <= handledFlush || StackPolicies.anyMerging(runs)) {
      return List.of();
    }
    handledFlush = t;
    long[] s = StackPolicies.sizesOldestFirst(runs);
    int n = s.length;
    boolean stuck = n > k;
    int bestA = -1;
    int bestB = -1;
    long bestSum = 0;
    for (int a = 0; a < n; a++) {
      long sum = 0;
      long max = 0;
      for (int b = a + 1; b <= n && b - a <= maxWindow; b++) {
        sum += s[b - 1];
        max = Math.max(max, s[b - 1]);
        int len = b - a;
        if (len < minWindow || max > ratio * (sum - max)) {
          continue;
        }
        if (bestA < 0 || better(stuck, a, b, sum, bestA, bestB, bestSum)) {
          bestA = a;
          bestB = b;
          bestSum = sum;
        }
      }
    }
    if (bestA >= 0) {
      return StackPolicies.mergeOldestFirstRange(runs, bestA, bestB);
    } else if (stuck && n >= minWindow) {
      int a0 = 0;
      long min = Long.MAX_VALUE;
      for (int a = 0; a + minWindow <= n; a++) {
        long sum = 0;
        for (int i = a; i < a + minWindow; i++) {
          sum += s[i];
        }
        if (sum < min) {
          min = sum;
          a0 = a;
        }
      }
      return StackPolicies.mergeOldestFirstRange(runs, a0, a0 + minWindow);
    }
    return List.of();
  }

  private static boolean better(boolean stuck, int a, int b, long sum, int bestA, int bestB,
      long bestSum) {
    int len = b - a;
    int bestLen = bestB - bestA;
    if (!stuck) {
      // Longest window; ties: smaller sum; ties: smallest start (kept by scanning order).
      return len > bestLen || len == bestLen && sum < bestSum;
    }
    // Smallest average; ties: smallest start, then smallest end (kept by scanning order).
    return sum * bestLen < bestSum * len;
  }
}
