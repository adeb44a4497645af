package org.strata.lsm.engine;

import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.component.MonkeyAllocation;
import org.strata.lsm.config.BloomFilterConfig;
import org.strata.lsm.spi.LevelShape;
import org.strata.lsm.spi.MergePolicy;

/**
 * The false-positive rate a new disk component's Bloom filter is built for, by the level it is
 * written to ({@code bloom-filter.allocation}): the same rate everywhere ({@code uniform}), or
 * Monkey's Eq. 9 rates for the policy's current {@link LevelShape} and the tree's current number of
 * levels ({@code monkey}; {@link MonkeyAllocation}). A filter keeps the rate it was built with; as
 * the tree grows a level, components written afterwards follow the new allocation.
 */
interface FilterRates {
  /** The rate for a component written to stored level {@code level} (0: a flush); 1: no filter. */
  double falsePositiveRate(int level);

  /**
   * The rates {@code config} asks for.
   *
   * @param policy the index's merge policy, whose {@link MergePolicy#levelShape()} Monkey reads
   *     each time a component is written (a policy may change its shape)
   * @param deepestLevel the deepest stored level of the index's current runs
   * @throws InvalidConfigurationException for {@code monkey} with a policy without levels
   */
  static FilterRates of(BloomFilterConfig config, MergePolicy policy, String policyName,
      IntSupplier deepestLevel) {
    double p = config.falsePositiveRate();
    if (config.allocation() == BloomFilterConfig.Allocation.UNIFORM) {
      return level -> p;
    }
    if (policy.levelShape().isEmpty()) {
      throw InvalidConfigurationException.of("bloom-filter.allocation", "monkey", "uniform for"
          + " merge-policy '" + policyName + "', which has no levels (monkey is for leveling,"
          + " tiering, lazy-leveling, fluid and partitioned-leveling)");
    }
    double bits = MonkeyAllocation.bitsPerEntry(p);
    Supplier<LevelShape> shape = () -> policy.levelShape().orElseThrow();
    return level -> {
      int at = Math.max(1, level); // flushed runs belong to level 1
      int levels = Math.max(at, Math.max(1, deepestLevel.getAsInt()));
      return MonkeyAllocation.falsePositiveRates(shape.get(), levels, bits)[at - 1];
    };
  }
}
