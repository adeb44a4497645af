package org.strata.twophase;

import java.util.List;

/**
 * A least-squares line through a per-second series, with a two-sided 95% confidence interval for
 * its slope (Student's t with n - 2 degrees of freedom), and the test that calls it upward:
 * the interval's lower bound is above zero, AND the fitted rise over the window is at least half
 * of the series' range in the window (so a sawtooth of merges, whose fitted rise over k periods
 * is only 1/k of its range, does not count), AND the rise is at least 5% of the series' mean
 * and at least a floor (so a flat series that ticks up by one does not count).
 *
 * @param fromSecond the first second of the window
 * @param toSecond the last second of the window
 * @param points samples in the window
 * @param slope fitted change per second
 * @param slopeLow lower bound of the slope's 95% confidence interval
 * @param slopeHigh upper bound
 * @param intercept fitted value at second 0
 * @param mean mean of the samples
 * @param min smallest sample
 * @param max largest sample
 * @param floor the least rise that counts, in the series' unit
 */
public record Trend(int fromSecond, int toSecond, int points, double slope, double slopeLow,
    double slopeHigh, double intercept, double mean, double min, double max, double floor) {

  /** Fraction of the series' range the fitted rise must reach to count. */
  public static final double MIN_RISE_OF_RANGE = 0.5;
  /** Fraction of the series' mean the fitted rise must reach to count. */
  public static final double MIN_RISE_OF_MEAN = 0.05;

  /**
   * Fits {@code y} against {@code x} (seconds). Fewer than three points give a flat trend with an
   * unbounded interval (never upward).
   */
  public static Trend fit(List<Integer> x, List<Double> y, double floor) {
    int n = x.size();
    if (n != y.size()) {
      throw new IllegalArgumentException(n + " seconds but " + y.size() + " values");
    }
    if (n == 0) {
      return new Trend(0, 0, 0, 0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, 0, 0, 0,
          floor);
    }
    double mx = 0;
    double my = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < n; i++) {
      mx += x.get(i);
      my += y.get(i);
      min = Math.min(min, y.get(i));
      max = Math.max(max, y.get(i));
    }
    mx /= n;
    my /= n;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < n; i++) {
      double dx = x.get(i) - mx;
      sxx += dx * dx;
      sxy += dx * (y.get(i) - my);
    }
    int from = x.get(0);
    int to = x.get(n - 1);
    if (n < 3 || sxx == 0) {
      return new Trend(from, to, n, 0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, my, my,
          min, max, floor);
    }
    double slope = sxy / sxx;
    double intercept = my - slope * mx;
    double ssr = 0;
    for (int i = 0; i < n; i++) {
      double r = y.get(i) - (intercept + slope * x.get(i));
      ssr += r * r;
    }
    double se = Math.sqrt(ssr / (n - 2) / sxx);
    double t = tQuantile975(n - 2);
    return new Trend(from, to, n, slope, slope - t * se, slope + t * se, intercept, my, min, max,
        floor);
  }

  /** The fitted rise from the window's first second to its last. */
  public double rise() {
    return slope * (toSecond - fromSecond);
  }

  /** The fitted value at {@code second}. */
  public double at(double second) {
    return intercept + slope * second;
  }

  /** True if the series trends upward by the test above. */
  public boolean upward() {
    double rise = rise();
    return slopeLow > 0 && rise >= MIN_RISE_OF_RANGE * (max - min)
        && rise >= MIN_RISE_OF_MEAN * Math.abs(mean) && rise >= floor;
  }

  /** The 97.5th percentile of Student's t with {@code df} degrees of freedom. */
  static double tQuantile975(int df) {
    final double[] table = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
        2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    if (df < 1) {
      return Double.POSITIVE_INFINITY;
    }
    if (df <= table.length) {
      return table[df - 1];
    }
    // Cornish-Fisher expansion around the normal quantile; within 0.001 of the exact value here.
    double z = 1.959964;
    double z3 = z * z * z;
    double z5 = z3 * z * z;
    return z + (z3 + z) / (4.0 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96.0 * df * df);
  }
}
