package org.strata.policy;

/**
 * Mathieu et al.'s MINLATENCY policy as evaluated by Mao et al. (docs/papers/mao.md#minlatency):
 * with m' = min{m : C(m+k, m) > t} and i = B(m', k, t), after flush t merge the i-th oldest run
 * with every newer one, leaving i runs. Static, stable, eager, lazy. t is the flush ordinal of the
 * newest run. Decisions are idempotent. Component constraint: lags while there are more than 2k
 * runs and a merge runs.
 */
public final class MinLatencyMergePolicy extends TargetCountPolicy {
  public MinLatencyMergePolicy(int k) {
    super(k);
  }

  /** The number of runs to keep after flush t. */
  @Override
  int target(long t) {
    int m = 0;
    while (Binomials.choose((long) m + k, m) <= t) {
      m++;
    }
    return Binomials.utility(m, k, t);
  }
}
