package org.strata.policy;

/**
 * Mathieu et al.'s BINOMIAL policy as evaluated by Mao et al. (docs/papers/mao.md#binomial): with
 * T_k(m) = sum over i = 1..m of C(i + min(i,k) - 1, i), m' = min{m : T_k(m) >= t} and i = 1 + B(m',
 * min(m',k) - 1, t - T_k(m'-1) - 1), after flush t merge the i-th oldest run with every newer one,
 * leaving i runs.
 *
 * <p>The paper's non-lazy definition (it may merge below k runs), not the reference simulator's
 * lazy variant. Static, stable, eager, not lazy. t is the flush ordinal of the newest run (its
 * maximum component id). Decisions are idempotent, so calls after merges change nothing. While any
 * run it would merge is already merging, it waits for the next call. Component constraint: lags
 * while there are more than 2k runs and a merge is running.
 */
public final class BinomialMergePolicy extends TargetCountPolicy {
  public BinomialMergePolicy(int k) {
    super(k);
  }

  /** The number of runs to keep after flush t. */
  @Override
  int target(long t) {
    long prev = 0;
    for (int m = 1; ; m++) {
      long cur = prev + Binomials.choose(m + Math.min(m, k) - 1L, m);
      if (cur >= t) {
        return 1 + Binomials.utility(m, Math.min(m, k) - 1, t - prev - 1);
      }
      prev = cur;
    }
  }
}
