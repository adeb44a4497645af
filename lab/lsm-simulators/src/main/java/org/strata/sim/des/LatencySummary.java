package org.strata.sim.des;

import org.HdrHistogram.Histogram;

/**
 * Percentiles of a latency distribution, in seconds (recorded with three significant digits at
 * microsecond resolution).
 *
 * @param count values recorded
 * @param mean arithmetic mean
 * @param p50 median
 * @param p90 90th percentile
 * @param p99 99th percentile, the paper's headline metric
 * @param p999 99.9th percentile
 * @param max largest value
 */
public record LatencySummary(long count, double mean, double p50, double p90, double p99,
    double p999, double max) {
  private static final double MICROS = 1e6;

  /** Summarises a histogram of microseconds. */
  public static LatencySummary of(Histogram h) {
    if (h.getTotalCount() == 0) {
      return new LatencySummary(0, 0, 0, 0, 0, 0, 0);
    }
    return new LatencySummary(h.getTotalCount(), h.getMean() / MICROS,
        h.getValueAtPercentile(50) / MICROS, h.getValueAtPercentile(90) / MICROS,
        h.getValueAtPercentile(99) / MICROS, h.getValueAtPercentile(99.9) / MICROS,
        h.getMaxValue() / MICROS);
  }
}
