package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.sim.merge.MergeSimulator;

/**
 * AsterixDB's {@code prefix} policy on the merge-policy simulator (moved here from
 * PrefixMergePolicyTest with the simulator; the policy's own decisions are tested there).
 */
class PrefixMergePolicySimulationTest {
  private static MergePolicy prefix(String max, String tolerance) {
    return Plugins.mergePolicy(new NamedPlugin("prefix", Map.of("max-mergable-component-size",
        max, "max-tolerance-component-count", tolerance)));
  }

  @Test
  void uniformFlushesFollowTheToleranceAndTheRatio() {
    MergeSimulator sim = new MergeSimulator(prefix("1000", "4"));
    java.util.List<Integer> counts = new java.util.ArrayList<>();
    for (int t = 0; t < 10; t++) {
      sim.flush(1);
      counts.add(sim.checkpoint().components());
    }
    // 4 flushes merge into 4; then 4 < 1.2 x younger needs four more flushes (4 < 4.8), and so on.
    assertThat(counts).containsExactly(1, 2, 3, 1, 2, 3, 4, 1, 2, 3);
  }
}
