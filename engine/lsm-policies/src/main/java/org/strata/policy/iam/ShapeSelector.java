package org.strata.policy.iam;

import java.util.List;

/**
 * IAM's choice of the mixed level {@code m} and its sequence limit {@code k} from the memory that
 * caches data (Gong et al., section 4.3, formulas (1) and (2)): the largest {@code m}, then the
 * largest {@code k}, with {@code sum_{j<m} D_j + D_m (k−1)/t <= M}. {@code m = n+1} means every
 * level appends (LSA); {@code k = 1} makes the mixed level a merging level.
 */
public final class ShapeSelector {
  /**
   * A chosen shape.
   *
   * @param mixedLevel {@code m}, 1..n+1
   * @param maxSequences {@code k}, at least 1 (meaningless when {@code m = n+1})
   */
  public record Shape(int mixedLevel, int maxSequences) {}

  private ShapeSelector() {}

  /**
   * Chooses {@code (m, k)}.
   *
   * @param levelBytes {@code D_1..D_n}, the bytes stored in each on-disk level (index 0 is level 1)
   * @param cacheBytes {@code M}, or the share of it reserved for appended data (e.g. M/2)
   * @param t the fan-out
   * @param maxK the largest {@code k} to consider (IamDB tries up to t+1)
   * @throws IllegalArgumentException if there are no levels, a size is negative, {@code t < 2} or
   *     {@code maxK < 1}
   */
  public static Shape choose(List<Double> levelBytes, double cacheBytes, int t, int maxK) {
    int n = levelBytes.size();
    if (n < 1 || t < 2 || maxK < 1 || cacheBytes < 0) {
      throw new IllegalArgumentException("need at least one level, t >= 2, maxK >= 1 and a"
          + " non-negative cache size; got " + n + " levels, t=" + t + ", maxK=" + maxK
          + ", cache " + cacheBytes);
    }
    double cum = 0;
    int m = 1;
    for (; m <= n; m++) {
      double d = levelBytes.get(m - 1);
      if (d < 0) {
        throw new IllegalArgumentException("level " + m + " holds a negative size " + d);
      }
      if (cum + d > cacheBytes) {
        break;
      }
      cum += d;
    }
    if (m > n) {
      return new Shape(n + 1, maxK);
    }
    // Level m does not fit whole; cum (levels above m) fits, so k = 1 satisfies (2).
    double dm = levelBytes.get(m - 1);
    int k = 1;
    while (k < maxK && cum + AmplificationModel.appendedBytes(dm, t, k + 1) <= cacheBytes) {
      k++;
    }
    return new Shape(m, k);
  }
}
