package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;

/** Bad parameters of every policy fail with a message naming the parameter and the value. */
class PolicyParametersTest {
  @ParameterizedTest(name = "{0} {1}={2}")
  @CsvSource({
      "constant, num-components, 0", "bigtable, num-components, 0", "binomial, num-components, -3",
      "min-latency, num-components, x", "exploring, num-components, 0", "exploring, ratio, 0",
      "exploring, ratio, -1.2", "exploring, min, 1", "exploring, max, 1",
      "size-tiered, size-ratio, 0", "size-tiered, min-merge, 1", "size-tiered, merge-exactly-min,"
          + " yes",
      "prefix, max-tolerance-component-count, 0", "prefix, max-mergable-component-size, big",
      "leveling, size-ratio, 1", "tiering, size-ratio, 0", "lazy-leveling, size-ratio, 1",
      "fluid, K, 0", "fluid, Z, 10", "leveling, dynamic-level-size, maybe",
      "partitioned-leveling, selection, random", "partitioned-leveling, l0-trigger, 0",
      "partitioned-leveling, file-size, 0", "triad-disk, overlap-ratio, 2",
      "triad-disk, max-l0-files, 0", "constant, k, 3", "binomial, numcomponents, 3",
      "adaptive-fluid, margin, 1", "adaptive-fluid, size-ratio, 20", "adaptive-fluid, K, 10",
      "adaptive-fluid, window-ops, 0", "adaptive-fluid, mu, 0", "adaptive-fluid, T, 3"})
  void badParameterIsNamed(String policy, String parameter, String value) {
    assertThatThrownBy(() -> Plugins.mergePolicy(new NamedPlugin(policy,
        Map.of(parameter, value))))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining(policy)
        .hasMessageContaining(parameter);
  }
}
