package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The {@code bloom-filter} section.
 *
 * @param falsePositiveRate {@code bloom-filter.false-positive-rate}: target false-positive rate of
 *     each component's Bloom filter, greater than 0 and less than 1, default 0.01; null means the
 *     default
 */
public record BloomFilterConfig(@JsonProperty("false-positive-rate") Double falsePositiveRate) {

  public BloomFilterConfig {
    falsePositiveRate = ConfigChecks.number("bloom-filter.false-positive-rate", falsePositiveRate,
        0.01, v -> v > 0 && v < 1, "a number greater than 0 and less than 1, e.g. 0.01");
  }

  /** The default: 1%. */
  public static BloomFilterConfig defaults() {
    return new BloomFilterConfig(null);
  }
}
