package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * The {@code bloom-filter} section.
 *
 * @param falsePositiveRate {@code bloom-filter.false-positive-rate}: target false-positive rate of
 *     each component's Bloom filter with {@code uniform} allocation, and the memory budget (the
 *     bits per entry uniform filters at this rate use, ln(1/p)/ln(2)²) with {@code monkey}; greater
 *     than 0 and less than 1, default 0.01; null means the default
 * @param allocation {@code bloom-filter.allocation}: {@link Allocation#UNIFORM} (default) or {@link
 *     Allocation#MONKEY}; null means the default
 */
public record BloomFilterConfig(
    @JsonProperty("false-positive-rate") Double falsePositiveRate,
    @JsonProperty("allocation")
    @JsonFormat(with = JsonFormat.Feature.ACCEPT_CASE_INSENSITIVE_VALUES) Allocation allocation) {

  /** How the filters' memory is shared among a store's components. */
  public enum Allocation {
    /** Every component's filter has the same false-positive rate, {@code false-positive-rate}. */
    UNIFORM,
    /**
     * Monkey's allocation (Dostoevsky Eq. 9): the same memory as uniform filters, shared so that a
     * run's false-positive rate is proportional to its level's size, which minimises the number of
     * runs an absent key passes; the largest levels get no filter when the budget is too small
     * for them. For policies with levels (those whose {@code MergePolicy.levelShape()} is
     * present: {@code leveling}, {@code tiering}, {@code lazy-leveling}, {@code fluid}, {@code
     * partitioned-leveling}).
     */
    MONKEY;

    /** The configuration name: {@code uniform} or {@code monkey}. */
    @JsonValue
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public BloomFilterConfig {
    falsePositiveRate = ConfigChecks.number("bloom-filter.false-positive-rate", falsePositiveRate,
        0.01, v -> v > 0 && v < 1, "a number greater than 0 and less than 1, e.g. 0.01");
    allocation = allocation == null ? Allocation.UNIFORM : allocation;
  }

  /** Uniform filters at {@code falsePositiveRate}. */
  public BloomFilterConfig(Double falsePositiveRate) {
    this(falsePositiveRate, null);
  }

  /** The default: uniform filters at 1%. */
  public static BloomFilterConfig defaults() {
    return new BloomFilterConfig(null, null);
  }
}
