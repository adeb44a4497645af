package org.strata.sim.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergeContext.Capability;
import org.strata.lsm.testing.NeedsCapability;

/** The merge-policy simulator models none of the capabilities and says so at creation. */
class SimulatorCapabilitiesTest {
  @ParameterizedTest
  @EnumSource(Capability.class)
  void refusesAPolicyThatNeedsAnyCapability(Capability c) {
    NeedsCapability needs = new NeedsCapability(c);
    assertThatThrownBy(() -> MergeSimulator.HOST.check(needs))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("merge-policy '" + needs.name() + "'")
        .hasMessageContaining("cannot run on the merge-policy simulator")
        .hasMessageContaining("it needs " + c.description())
        .hasMessageContaining("run it on the engine with `strata two-phase`");
    assertThat(MergeSimulator.HOST.offered()).doesNotContain(c);
  }

  @Test
  void thePartitionedPoliciesAreRefusedUpFrontAndTheOthersRun() {
    assertThatThrownBy(() -> MergeSimulator.of(new NamedPlugin("partitioned-leveling", Map.of())))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessage("merge-policy 'partitioned-leveling' cannot run on the merge-policy simulator:"
            + " it needs partitioned runs and key ranges, which are not modelled there; run it on"
            + " the engine with `strata two-phase`");
    assertThatThrownBy(() -> MergeSimulator.of(new NamedPlugin("triad-disk", Map.of())))
        .hasMessageContaining("partitioned runs, key ranges and key sketches");
    // The LSA- and IAM-trees group files into nodes by key range and route merge output to
    // several runs; the simulator's components have sizes but no keys.
    for (String tree : new String[] {"lsa", "iam"}) {
      Map<String, String> params = tree.equals("iam") ? Map.of("mixed-level", "2") : Map.of();
      assertThatThrownBy(() -> MergeSimulator.of(new NamedPlugin(tree, params)))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessage("merge-policy '" + tree + "' cannot run on the merge-policy simulator: it"
              + " needs key ranges and routed merges, which are not modelled there; run it on the"
              + " engine with `strata two-phase`");
    }
    for (String name : Plugins.policyFactories().keySet()) {
      if (Plugins.policyFactories().get(name).requiredCapabilities().isEmpty()) {
        MergeSimulator sim = MergeSimulator.of(new NamedPlugin(name, Map.of()));
        sim.flush(100);
        assertThat(sim.capabilities()).as(name).isEmpty();
      }
    }
  }

  @Test
  void anUndeclaredPartitionedMergeStaysAnError() {
    MergeSimulator sim = new MergeSimulator(Plugins.mergePolicy(
        new NamedPlugin("partitioned-leveling", Map.of("l0-trigger", "2"))));
    sim.flush(100);
    assertThatThrownBy(() -> sim.flush(100))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("does not offer partitioned runs");
  }
}
