package org.strata.twophase;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

/**
 * Percentiles of a latency histogram recorded in microseconds, reported in milliseconds.
 *
 * @param count values recorded
 * @param mean mean, ms
 * @param p50 median, ms
 * @param p90 90th percentile, ms
 * @param p99 99th percentile, ms
 * @param p999 99.9th percentile, ms
 * @param max largest value, ms
 */
public record Latency(long count, double mean, double p50, double p90, double p99, double p999,
    double max) {

  static Latency of(Histogram h) {
    if (h.getTotalCount() == 0) {
      return new Latency(0, 0, 0, 0, 0, 0, 0);
    }
    return new Latency(h.getTotalCount(), h.getMean() / 1000, h.getValueAtPercentile(50) / 1000.0,
        h.getValueAtPercentile(90) / 1000.0, h.getValueAtPercentile(99) / 1000.0,
        h.getValueAtPercentile(99.9) / 1000.0, h.getMaxValue() / 1000.0);
  }

  /** Percentiles of a histogram recorded in nanoseconds, in milliseconds. */
  static Latency ofNanos(Histogram h) {
    if (h.getTotalCount() == 0) {
      return new Latency(0, 0, 0, 0, 0, 0, 0);
    }
    return new Latency(h.getTotalCount(), h.getMean() / 1e6, h.getValueAtPercentile(50) / 1e6,
        h.getValueAtPercentile(90) / 1e6, h.getValueAtPercentile(99) / 1e6,
        h.getValueAtPercentile(99.9) / 1e6, h.getMaxValue() / 1e6);
  }

  ObjectNode json() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("count", count);
    o.put("mean", mean);
    o.put("p50", p50);
    o.put("p90", p90);
    o.put("p99", p99);
    o.put("p99.9", p999);
    o.put("max", max);
    return o;
  }
}
