package org.strata.policy.tuning;

/**
 * The costs Dostoevsky's model predicts for one Fluid LSM-tree design (T, K, Z): zero-result and
 * existing-key point lookups (R, V), range lookups (Q), updates (W), space amplification, the
 * optimal Bloom filter false-positive rate of every level and the bits per entry they take.
 *
 * @param sizeRatio T
 * @param k K, runs bound at levels 1..L−1
 * @param z Z, runs bound at level L
 * @param levels L
 * @param unfilteredLevels Y, the largest levels left without filters (below the memory threshold)
 * @param zeroResultLookup R, I/Os
 * @param existingLookup V, I/Os
 * @param rangeLookup Q, I/Os
 * @param update W, amortised I/Os per update
 * @param spaceAmplification amp = Z − 1 + 1/T
 * @param falsePositiveRates p_1..p_L (index 0 is level 1)
 * @param bitsPerEntry filter bits per entry of each level (0 where p = 1)
 */
public record FluidCosts(int sizeRatio, int k, int z, int levels, int unfilteredLevels,
    double zeroResultLookup, double existingLookup, double rangeLookup, double update,
    double spaceAmplification, double[] falsePositiveRates, double[] bitsPerEntry) {

  /** Eq. (14) without the constant Ω: the mean I/O cost of an operation of the workload. */
  public double cost(Workload w) {
    return w.updates() * update + w.zeroResultLookups() * zeroResultLookup
        + w.existingLookups() * existingLookup + w.rangeLookups() * rangeLookup;
  }

  /** The name of the design when it is one of the three classic ones. */
  public String designName() {
    if (k == 1 && z == 1) {
      return sizeRatio == 2 ? "leveling = tiering = lazy leveling (T = 2)" : "leveling";
    }
    if (k == sizeRatio - 1 && z == sizeRatio - 1) {
      return "tiering";
    }
    if (k == sizeRatio - 1 && z == 1) {
      return "lazy leveling";
    }
    return "fluid";
  }
}
