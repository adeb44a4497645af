package org.strata.policy.iam;

/**
 * The analytic amplification model of the LSA- and IAM-trees (Gong et al., ICPP 2019, section
 * 5.3): write amplification per level and in total, and the seeks of a scan. It describes a steady
 * state with full levels; the paper's measured write amplification is lower (its Table 3 totals
 * 4.70 where formula (4) gives about 12), so reproductions compare with the measured tables.
 *
 * <p>Symbols: {@code t} the fan-out (node-count ratio between levels), {@code n} the number of
 * on-disk levels, {@code m} the mixed level (1..n, or n+1 for none), {@code k} the sequence limit
 * of the mixed level.
 */
public final class AmplificationModel {
  private AmplificationModel() {}

  /**
   * Formula (5): the write amplification of splits, {@code 2 * sum_{j=1}^{n-1} (2/t)^j}.
   *
   * @throws IllegalArgumentException if {@code t < 2} or {@code n < 1}
   */
  public static double splitWriteAmplification(int t, int n) {
    check(t, n);
    double sum = 0;
    double term = 1;
    for (int j = 1; j <= n - 1; j++) {
      term *= 2.0 / t;
      sum += term;
    }
    return 2 * sum;
  }

  /** Formula (3): LSA's write amplification, {@code W_sp + n} (each level's flush costs 1). */
  public static double lsaWriteAmplification(int t, int n) {
    return splitWriteAmplification(t, n) + n;
  }

  /** A merging level's write amplification, {@code (C/t + C/2) / (C/t) = t/2 + 1}. */
  public static double mergingLevelWriteAmplification(int t) {
    check(t, 1);
    return t / 2.0 + 1;
  }

  /**
   * The mixed level's write amplification with one merge every {@code k} flushes into a node,
   * {@code (kC/t + C/2) / (kC/t) = t/(2k) + 1}.
   *
   * @throws IllegalArgumentException if {@code k < 1}
   */
  public static double mixedLevelWriteAmplification(int t, int k) {
    check(t, 1);
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, got " + k);
    }
    return t / (2.0 * k) + 1;
  }

  /**
   * Formula (4): IAM's write amplification, {@code W_sp + n + t/(2k) + sum_{j=m+1}^{n} t/2} for
   * {@code 1 <= m <= n}, and LSA's {@code W_sp + n} for {@code m = n+1}.
   *
   * @throws IllegalArgumentException if {@code m} is not in 1..n+1 or {@code k < 1}
   */
  public static double iamWriteAmplification(int t, int n, int m, int k) {
    check(t, n);
    if (m < 1 || m > n + 1) {
      throw new IllegalArgumentException("m must be in 1.." + (n + 1) + ", got " + m);
    }
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, got " + k);
    }
    double w = lsaWriteAmplification(t, n);
    if (m <= n) {
      w += t / (2.0 * k) + (n - m) * (t / 2.0);
    }
    return w;
  }

  /** Seeks of a scan in IAM or a leveled LSM when levels above {@code m} are cached: n−m+1. */
  public static double iamScanSeeks(int n, int m) {
    return n - m + 1;
  }

  /** Seeks of a scan in LSA: a node holds 0.5t sequences on average, {@code 0.5t (n−m+1)}. */
  public static double lsaScanSeeks(int t, int n, int m) {
    return 0.5 * t * (n - m + 1);
  }

  /**
   * Formula (1): the average bytes of appended sequences in the mixed level, {@code D_m (k−1)/t}.
   */
  public static double appendedBytes(double levelBytes, int t, int k) {
    return levelBytes * (k - 1) / t;
  }

  private static void check(int t, int n) {
    if (t < 2) {
      throw new IllegalArgumentException("t must be at least 2, got " + t);
    }
    if (n < 1) {
      throw new IllegalArgumentException("n must be at least 1, got " + n);
    }
  }
}
