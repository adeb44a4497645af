package org.strata.sim.des;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.spi.MergeContext.Capability;
import org.strata.lsm.testing.NeedsCapability;

/** The discrete-event simulator models none of the capabilities and says so at creation. */
class DesCapabilitiesTest {
  @ParameterizedTest
  @EnumSource(Capability.class)
  void refusesAPolicyThatNeedsAnyCapability(Capability c) {
    NeedsCapability needs = new NeedsCapability(c);
    assertThatThrownBy(() -> DesIndex.HOST.check(needs))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("merge-policy '" + needs.name() + "'")
        .hasMessageContaining("cannot run on the discrete-event simulator")
        .hasMessageContaining("it needs " + c.description());
    assertThat(DesIndex.HOST.offered()).doesNotContain(c);
  }

  @Test
  void thePartitionedPoliciesAreRefusedWhenTheSimulatorIsCreated() {
    NamedPlugin scheduler = new NamedPlugin("single-thread", Map.of());
    assertThatThrownBy(() -> DiscreteEventSimulator.of(DesSetup.paper(),
        new NamedPlugin("partitioned-leveling", Map.of()), scheduler))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("merge-policy 'partitioned-leveling' cannot run on the"
            + " discrete-event simulator: it needs partitioned runs and key ranges");
    assertThatThrownBy(() -> DiscreteEventSimulator.of(DesSetup.paper(),
        new NamedPlugin("triad-disk", Map.of()), scheduler))
        .hasMessageContaining("key sketches");
    assertThat(DiscreteEventSimulator.of(DesSetup.paper(), new NamedPlugin("tiering", Map.of()),
        scheduler)).isNotNull();
  }
}
