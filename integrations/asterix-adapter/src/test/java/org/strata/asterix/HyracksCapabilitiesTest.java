package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.spi.MergeContext.Capability;
import org.strata.lsm.testing.NeedsCapability;

/**
 * Hyracks components offer none of the capabilities: a policy that declares one is refused when
 * the Hyracks policy is created (or reconfigured), with what it needs and what to do instead.
 */
class HyracksCapabilitiesTest {
  @ParameterizedTest
  @EnumSource(Capability.class)
  void refusesAPolicyThatNeedsAnyCapability(Capability c) {
    NeedsCapability needs = new NeedsCapability(c);
    assertThatThrownBy(() -> HyracksMergeContext.HOST.check(needs))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("merge-policy '" + needs.name() + "' cannot run on Hyracks"
            + " components: it needs " + c.description())
        .hasMessageContaining("choose a policy that merges whole runs");
    assertThat(HyracksMergeContext.HOST.offered()).doesNotContain(c);
  }

  @Test
  void theFactoryAndConfigureNameWhatTriadNeeds() {
    StrataMergePolicyFactory factory = new StrataMergePolicyFactory();
    assertThatThrownBy(() -> factory.createMergePolicy(Map.of("policy", "triad-disk"), null))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("it needs partitioned runs, key ranges and key sketches");
    var policy = factory.createMergePolicy(Map.of("policy", "binomial"), null);
    assertThatThrownBy(() -> policy.configure(Map.of("policy", "partitioned-leveling")))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("'partitioned-leveling' cannot run on Hyracks components");
  }
}
