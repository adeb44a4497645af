package org.strata.policy.tuning;

/**
 * Operation mix of Eq. (14): proportions of updates (w), zero-result point lookups (r),
 * existing-key point lookups (v) and range lookups (q), and the range selectivity as a fraction of
 * all entries (s). Proportions are normalised to sum to 1.
 */
public record Workload(double updates, double zeroResultLookups, double existingLookups,
    double rangeLookups, double selectivity) {
  public Workload {
    double sum = updates + zeroResultLookups + existingLookups + rangeLookups;
    if (updates < 0 || zeroResultLookups < 0 || existingLookups < 0 || rangeLookups < 0
        || sum <= 0) {
      throw new IllegalArgumentException("operation proportions must be non-negative and not all"
          + " zero");
    }
    if (selectivity < 0 || selectivity > 1) {
      throw new IllegalArgumentException("selectivity is a fraction of the entries, 0 to 1; got "
          + selectivity);
    }
    updates /= sum;
    zeroResultLookups /= sum;
    existingLookups /= sum;
    rangeLookups /= sum;
  }
}
