package org.strata.policy.tuning;

/**
 * Dostoevsky's closed-form cost model (docs/papers/dostoevsky.md#fluid-lsm-tree): Eq. (1) for the
 * number of levels, Eqs. (9)–(13) above the memory threshold of Eq. (23), and Eqs. (24)–(28) below
 * it, where the Y largest levels get no Bloom filter. Range selectivity s is a fraction of N (the
 * reading of that page), so a range returns s·N entries. Above the threshold Eqs. (11) and (12) are
 * used as written (they differ from (27) and (28) at Y = 0 in the K·(L−1) + Z term).
 */
public final class DostoevskyCostModel {
  private static final double LN2_SQ = Math.log(2) * Math.log(2);

  private DostoevskyCostModel() {}

  /** Eq. (23): the bits per entry below which the largest levels lose their filters. */
  public static double memoryThreshold(int t, int k, int z) {
    return (Math.log(t) / (t - 1) + (Math.log(k) - Math.log(z)) / t) / LN2_SQ;
  }

  /** Costs of design (T, K, Z) for {@code shape} and range selectivity {@code s}. */
  public static FluidCosts evaluate(LsmShape shape, double selectivity, int t, int k, int z) {
    if (t < 2) {
      throw new IllegalArgumentException("T must be at least 2, got " + t);
    }
    if (k < 1 || k > t - 1 || z < 1 || z > t - 1) {
      throw new IllegalArgumentException("K and Z must lie in 1..T-1 = 1.." + (t - 1)
          + "; got K = " + k + ", Z = " + z);
    }
    int levels = shape.levels(t);
    double bitsPerEntry = shape.filterBitsPerEntry();
    double x = memoryThreshold(t, k, z);
    int y = 0;
    if (bitsPerEntry <= 0) {
      y = levels;
    } else if (bitsPerEntry < x) {
      // Below the threshold the largest Y levels go without filters, Y being the fewest levels
      // whose removal leaves enough memory per remaining entry: bits * T^Y >= X. (The paper's Eq.
      // (24) writes a floor, which can give Y = 0 and a p_L above 1; this is the reading that
      // keeps every p_i <= 1.)
      y = Math.min(levels, (int) Math.ceil(Math.log(x / bitsPerEntry) / Math.log(t) - 1e-12));
    }
    double base = Math.pow(z, (t - 1.0) / t) * Math.pow(k, 1.0 / t)
        * Math.pow(t, t / (t - 1.0)) / (t - 1.0);
    double filtered = y >= levels ? 0
        : Math.exp(-bitsPerEntry * LN2_SQ * Math.pow(t, y)) * base;
    double r = filtered + (double) y * z;
    double[] p = new double[levels];
    int lastFiltered = levels - y; // levels 1..lastFiltered have filters
    double rf = r - (double) y * z;
    for (int i = 1; i <= levels; i++) {
      if (i > lastFiltered) {
        p[i - 1] = 1;
      } else if (i == lastFiltered) {
        p[i - 1] = Math.min(1, rf / z * (t - 1.0) / t);
      } else {
        p[i - 1] = Math.min(1, rf / k * (t - 1.0) / t / Math.pow(t, lastFiltered - i));
      }
    }
    double[] bits = new double[levels];
    for (int i = 0; i < levels; i++) {
      bits[i] = p[i] >= 1 ? 0 : -Math.log(p[i]) / LN2_SQ;
    }
    double pLast = p[levels - 1];
    double v = y > 0 ? r : 1 + r - pLast;
    double scanned = selectivity * shape.entries() / shape.entriesPerBlock();
    double q = (double) k * (levels - y) + (double) z * y + scanned / shape.mu() * (z + 1.0 / t);
    if (y == 0) {
      q = (double) k * (levels - 1) + z + scanned / shape.mu() * (z + 1.0 / t);
    }
    double w = shape.phi() / (shape.mu() * shape.entriesPerBlock())
        * ((t - 1.0) / (k + 1) * (y == 0 ? levels - 1 : levels - y)
            + (t - 1.0) / (z + 1) * (y == 0 ? 1 : y));
    double amp = z - 1 + 1.0 / t;
    return new FluidCosts(t, k, z, levels, y, r, v, q, w, amp, p, bits);
  }
}
