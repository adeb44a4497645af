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

/**
 * AsterixDB's {@code size-bounded-concurrent} policy, each case worked by hand from the rule in
 * {@link SizeBoundedConcurrentMergePolicy}'s documentation (runs newest first).
 */
class SizeBoundedConcurrentMergePolicyTest {
  private static MergePolicy policy(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Plugins.mergePolicy(new NamedPlugin("size-bounded-concurrent", m));
  }

  private static List<List<Long>> merges(MergePolicy p, long... sizesNewestFirst) {
    PolicyTestHost h = SizeTieredMergePolicyTest.host(sizesNewestFirst);
    h.decide(p, false);
    return h.mergedSizes();
  }

  @Test
  void unboundedItSkipsTheLargeOldRunAndMergesTheSmallOnes() {
    // Window ending at 100: 1.2 x 30 < 100. Window ending at the third 10: 1.2 x 20 >= 10.
    assertThat(merges(policy(), 10, 10, 10, 100)).containsExactly(List.of(10L, 10L, 10L));
  }

  @Test
  void theBoundLeavesOutTheRunThatReachesIt() {
    // Bound 25: ending at the oldest 10, 10 + 10 = 20 stays below, + 10 reaches 25: two runs.
    assertThat(merges(policy("max-component-size", "25"), 10, 10, 10, 100)).isEmpty();
    assertThat(merges(policy("max-component-size", "25", "min-merge-component-count", "2"),
        10, 10, 10, 100)).containsExactly(List.of(10L, 10L));
  }

  @Test
  void aRunAtTheBoundIsNeverMergedAgain() {
    assertThat(merges(policy("max-component-size", "100", "min-merge-component-count", "2"),
        100, 100)).isEmpty();
    assertThat(merges(policy("max-component-size", "100", "min-merge-component-count", "2"),
        40, 40, 100)).containsExactly(List.of(40L, 40L));
  }

  @Test
  void aWindowHoldsUpToMaxMergePlusOneRunsAsAsterixDbsCodeReads() {
    assertThat(merges(policy("max-merge-component-count", "3"), 10, 10, 10, 10, 10, 10))
        .containsExactly(List.of(10L, 10L, 10L, 10L));
  }

  @Test
  void writesWaitWhileAMergeRunsAndTheMergeableRunsReachTheCount() {
    MergePolicy p = policy("max-merge-component-count", "3", "max-component-count", "8");
    // Eight candidates of 10 (the oldest of nine is merging): windows [4..7] and [0..3].
    PolicyTestHost nine = SizeTieredMergePolicyTest.host(10, 10, 10, 10, 10, 10, 10, 10, 10);
    assertThat(p.isMergeLagging(nine.markMerging(8))).isTrue();
    // Seven candidates: windows [3..6] and [0..2], seven runs.
    PolicyTestHost eight = SizeTieredMergePolicyTest.host(10, 10, 10, 10, 10, 10, 10, 10);
    assertThat(p.isMergeLagging(eight.markMerging(7))).isFalse();
    assertThat(p.isMergeLagging(SizeTieredMergePolicyTest.host(10, 10, 10, 10, 10, 10, 10, 10)))
        .as("no merge running").isFalse();
    // Runs too large to merge are not counted: eight runs at the bound never make writes wait.
    MergePolicy bounded = policy("max-component-size", "10", "max-component-count", "2");
    assertThat(bounded.isMergeLagging(
        SizeTieredMergePolicyTest.host(10, 10, 10, 10, 10, 10, 10, 10, 10).markMerging(8)))
        .isFalse();
    assertThat(bounded.componentConstraint()).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void aFullMergeIsNeverRun() {
    PolicyTestHost h = SizeTieredMergePolicyTest.host(10, 10, 10);
    h.decide(policy(), true);
    assertThat(h.mergedSizes()).isEmpty();
  }

  @Test
  void badParametersAreRefusedByName() {
    assertThatThrownBy(() -> policy("max-component-size", "0"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("max-component-size");
    assertThatThrownBy(() -> policy("max-component-size", "lots"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("max-component-size");
  }
}
