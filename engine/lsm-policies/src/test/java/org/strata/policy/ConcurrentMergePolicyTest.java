package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.testing.PolicyTestHost;

/** AsterixDB's {@code concurrent} policy: its defaults, its wait at the count, its guard. */
class ConcurrentMergePolicyTest {
  private static MergePolicy policy(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Plugins.mergePolicy(new NamedPlugin("concurrent", m));
  }

  /** {@code n} runs sized 1, 3, 9, ... newest first: no window may merge (3^k > 1.2 · sum). */
  private static PolicyTestHost powersOfThree(int n) {
    long[] sizes = new long[n];
    long s = 1;
    for (int i = 0; i < n; i++) {
      sizes[i] = s;
      s *= 3;
    }
    return SizeTieredMergePolicyTest.host(sizes);
  }

  @Test
  void asterixDbDefaultsMergeThreeEqualRunsButNotTwo() {
    assertThat(policy().componentConstraint()).isEqualTo(30);
    PolicyTestHost two = SizeTieredMergePolicyTest.host(10, 10);
    two.decide(policy(), false);
    assertThat(two.mergedSizes()).isEmpty();
    PolicyTestHost three = SizeTieredMergePolicyTest.host(10, 10, 10);
    three.decide(policy(), false);
    assertThat(three.mergedSizes()).containsExactly(List.of(10L, 10L, 10L));
  }

  @Test
  void windowsAreSizeTieredsUnderAsterixDbsNames() {
    long[] sizes = {5, 7, 11, 13, 40, 41, 90, 400, 2, 3, 600};
    PolicyTestHost ours = SizeTieredMergePolicyTest.host(sizes);
    ours.decide(policy("min-merge-component-count", "2", "max-merge-component-count", "4",
        "size-ratio", "1.5"), false);
    PolicyTestHost tiered = SizeTieredMergePolicyTest.host(sizes);
    tiered.decide(Plugins.mergePolicy(new NamedPlugin("size-tiered",
        Map.of("min-merge", "2", "max-merge", "4", "size-ratio", "1.5"))), false);
    assertThat(ours.mergedSizes()).isNotEmpty().isEqualTo(tiered.mergedSizes());
  }

  @Test
  void writesWaitFromTheCountOnWhileAMergeRuns() {
    MergePolicy p = policy();
    assertThat(p.isMergeLagging(powersOfThree(30).markMerging(29))).isTrue();
    assertThat(p.isMergeLagging(powersOfThree(29).markMerging(28))).isFalse();
    assertThat(p.isMergeLagging(powersOfThree(30))).as("no merge running").isFalse();
    MergePolicy sizeTiered = Plugins.mergePolicy(new NamedPlugin("size-tiered",
        Map.of("max-component-count", "30")));
    assertThat(sizeTiered.isMergeLagging(powersOfThree(30).markMerging(29)))
        .as("size-tiered waits only above the count").isFalse();
  }

  @Test
  void atTheCountWithNoWindowEveryRunIsMergedIntoOne() {
    PolicyTestHost at = powersOfThree(30);
    at.decide(policy(), false);
    assertThat(at.mergedSizes()).hasSize(1);
    assertThat(at.mergedSizes().get(0)).hasSize(30);
    PolicyTestHost below = powersOfThree(29);
    below.decide(policy(), false);
    assertThat(below.mergedSizes()).isEmpty();
  }

  @Test
  void aFullMergeWaitsWhileAMergeRuns() {
    PolicyTestHost busy = SizeTieredMergePolicyTest.host(1, 3, 9).markMerging(2);
    busy.decide(policy(), true);
    assertThat(busy.mergedSizes()).isEmpty();
    PolicyTestHost idle = SizeTieredMergePolicyTest.host(1, 3, 9);
    idle.decide(policy(), true);
    assertThat(idle.mergedSizes()).containsExactly(List.of(1L, 3L, 9L));
  }

  @Test
  void badParametersAreRefusedByName() {
    assertThatThrownBy(() -> policy("min-merge-component-count", "1"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("min-merge-component-count");
    assertThatThrownBy(() -> policy("min-merge", "2"))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("min-merge");
  }
}
