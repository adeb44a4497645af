package org.strata.policy.tuning;

/**
 * What Dostoevsky's cost model needs to know about the data and the machine
 * (docs/papers/dostoevsky.md#terms).
 *
 * @param entries N, total entries
 * @param entriesPerBlock B, entries per storage block
 * @param bufferBlocks P, size of the write buffer in blocks
 * @param filterBitsPerEntry M/N, Bloom filter memory per entry
 * @param mu storage sequential over random access speed
 * @param phi storage write over read speed
 */
public record LsmShape(double entries, double entriesPerBlock, double bufferBlocks,
    double filterBitsPerEntry, double mu, double phi) {
  public LsmShape {
    if (entries <= 0 || entriesPerBlock <= 0 || bufferBlocks <= 0 || filterBitsPerEntry < 0
        || mu <= 0 || phi <= 0) {
      throw new IllegalArgumentException("entries, entries per block, buffer blocks, mu and phi"
          + " must be positive and bits per entry non-negative");
    }
  }

  /** T_lim = N / (B·P): the size ratio at which the tree has one level. */
  public double sizeRatioLimit() {
    return entries / (entriesPerBlock * bufferBlocks);
  }

  /** Eq. (1): L = ceil(log_T((N / (B·P)) · (T−1)/T)), at least 1. */
  public int levels(double t) {
    double l = Math.log(sizeRatioLimit() * (t - 1) / t) / Math.log(t);
    return Math.max(1, (int) Math.ceil(l - 1e-9));
  }
}
