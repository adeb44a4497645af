package org.strata.policy;

/** Test access to the package-private binomial helper. */
public final class BinomialsAccess {
  private BinomialsAccess() {}

  public static long choose(long n, long r) {
    return Binomials.choose(n, r);
  }
}
