package org.strata.policy;

/**
 * Binomial coefficients and Mathieu et al.'s utility function B(m, k, t), the stack depth (plus
 * one) of node t in the tree tau*(m, k) (docs/papers/mao.md#recurrence-b). Coefficients saturate at
 * {@link Long#MAX_VALUE}.
 */
final class Binomials {
  private Binomials() {}

  /** C(n, r), saturating at Long.MAX_VALUE; 0 when r < 0 or r > n. */
  static long choose(long n, long r) {
    if (r < 0 || n < 0 || r > n) {
      return 0;
    }
    r = Math.min(r, n - r);
    long c = 1;
    for (long i = 1; i <= r; i++) {
      long num = n - r + i;
      // c * num / i stays exact: c * num is divisible by i at every step.
      if (c > Long.MAX_VALUE / num) {
        return Long.MAX_VALUE;
      }
      c = c * num / i;
    }
    return c;
  }

  /**
   * B(m, k, t) by the recurrence of docs/papers/mao.md#recurrence-b, evaluated iteratively:
   * B(m,k,0) = 0; B(m-1,k,t) if t < C(m+k-1, k); else 1 + B(m, k-1, t - C(m+k-1, k)). Valid for 0
   * <= t <= C(m+k, k) - 1.
   */
  static int utility(int m, int k, long t) {
    int result = 0;
    while (t > 0) {
      if (m < 0 || k < 0) {
        throw new IllegalArgumentException("t outside the domain of B");
      }
      long c = choose((long) m + k - 1, k);
      if (t < c) {
        m--;
      } else {
        t -= c;
        k--;
        result++;
      }
    }
    return result;
  }
}
