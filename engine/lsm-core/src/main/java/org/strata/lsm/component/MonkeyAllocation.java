package org.strata.lsm.component;

import java.util.Arrays;
import org.strata.lsm.spi.LevelShape;

/**
 * Monkey's Bloom-filter allocation as Dostoevsky writes it for a Fluid LSM-tree (Eq. 9, App. A and
 * App. C; docs/papers/dostoevsky.md#filter-allocation): for a memory budget of {@code bitsPerEntry}
 * bits per entry over the whole tree, the false-positive rate of each run at level i that minimises
 * the zero-result lookup cost R = Z·p_L + K·Σ p_i. The Lagrangian's stationarity (App. A, Eq. 18)
 * gives p_i = p_L·Z / (K·T^(L−i)) for i < L: a run's rate is proportional to its size. This class
 * solves it for a finite L, where Eq. 9's closed form is the L → ∞ limit: level i holds the
 * fraction f_i = T^(i−L)·(T−1)/T / (1 − T^(−L)) of the entries (level i's capacity is T−1 arrivals
 * of T^(i−1) buffers, so the levels add up to the whole), and p_L follows from Eq. 4's memory, Σ
 * f_i·ln(1/p_i) = bitsPerEntry · ln(2)². Levels whose rate would reach 1 get no filter (App. C: "no
 * filter if p_i ≥ 1"; these are the largest levels), and the memory they free goes to the others.
 */
public final class MonkeyAllocation {
  private static final double LN2_SQUARED = Math.log(2) * Math.log(2);

  private MonkeyAllocation() {}

  /**
   * The bits per entry that uniform filters with false-positive rate {@code p} use (Eq. 4 with
   * every p_i = p): ln(1/p) / ln(2)².
   */
  public static double bitsPerEntry(double falsePositiveRate) {
    if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) {
      throw new IllegalArgumentException("a false-positive rate lies strictly between 0 and 1, got "
          + falsePositiveRate);
    }
    return Math.log(1 / falsePositiveRate) / LN2_SQUARED;
  }

  /**
   * The false-positive rate of a run at each level 1..{@code levels}: element i−1 is level i's;
   * 1.0 means no filter.
   *
   * @param shape T, K and Z
   * @param levels L, at least 1
   * @param bitsPerEntry the budget M/N, more than 0
   */
  public static double[] falsePositiveRates(LevelShape shape, int levels, double bitsPerEntry) {
    if (levels < 1) {
      throw new IllegalArgumentException("a tree has at least one level, got " + levels);
    }
    if (!(bitsPerEntry > 0) || Double.isInfinite(bitsPerEntry)) {
      throw new IllegalArgumentException("bits per entry must be a positive number, got "
          + bitsPerEntry);
    }
    double t = shape.sizeRatio();
    double[] fraction = new double[levels];
    double[] logWeight = new double[levels]; // ln(p_i / p_L)
    double total = 0;
    for (int i = 1; i <= levels; i++) {
      fraction[i - 1] = Math.pow(t, i - levels);
      total += fraction[i - 1];
      logWeight[i - 1] = i == levels ? 0 : Math.log(shape.runsAtLargestLevel())
          - Math.log(shape.runsPerLevel()) - (levels - i) * Math.log(t);
    }
    for (int i = 0; i < levels; i++) {
      fraction[i] /= total;
    }
    double budget = bitsPerEntry * LN2_SQUARED; // Σ f_i ln(1/p_i) over levels with a filter
    int filtered = levels; // levels 1..filtered have filters; the rates rise with the level
    double[] p = new double[levels];
    while (true) {
      double share = 0;
      double weighted = 0;
      for (int i = 0; i < filtered; i++) {
        share += fraction[i];
        weighted += fraction[i] * logWeight[i];
      }
      // Σ f_i (ln(1/p_L) − logWeight_i) = budget
      double lnInvPl = (budget + weighted) / share;
      Arrays.fill(p, 1.0);
      for (int i = 0; i < filtered; i++) {
        p[i] = Math.exp(logWeight[i] - lnInvPl);
      }
      if (p[filtered - 1] < 1 || filtered == 1) {
        for (int i = 0; i < filtered; i++) {
          p[i] = Math.min(1.0, p[i]);
        }
        return p;
      }
      filtered--;
    }
  }

  /**
   * The zero-result lookup cost of an allocation, R = Z·p_L + K·Σ_{i<L} p_i (Eq. 15): the expected
   * number of runs whose filter lets an absent key through.
   */
  public static double zeroResultLookupCost(LevelShape shape, double[] rates) {
    double r = 0;
    for (int i = 0; i < rates.length; i++) {
      r += (i == rates.length - 1 ? shape.runsAtLargestLevel() : shape.runsPerLevel()) * rates[i];
    }
    return r;
  }
}
