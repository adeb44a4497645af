package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.testing.PolicyTestHost;

/**
 * {@code constraint-counts=luo-carey}: the component constraints as Luo & Carey count them (their
 * sections 5.1.1 and 7.6), beside Strata's default counts, which stay as they were.
 */
class LuoCareyConstraintCountsTest {
  private static MergePolicy policy(String name, String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Plugins.mergePolicy(new NamedPlugin(name, m));
  }

  /** Tiering T = 3: a level with five runs and a merge pending, then with seven. */
  @Test
  void tieringAllowsTwoTRunsPerLevelAndTwoTLInAll() {
    MergePolicy strata = policy("tiering", "size-ratio", "3", "preemptive", "false");
    MergePolicy paper = policy("tiering", "size-ratio", "3", "preemptive", "false",
        "constraint-counts", "luo-carey");
    PolicyTestHost five = new PolicyTestHost().largestFlush(1).newest(3, 27).newest(2, 3)
        .newest(2, 3);
    for (int i = 0; i < 5; i++) {
      five.newest(0, 1); // flushed runs belong to level 1
    }
    five.decide(strata, false); // schedules a merge of level 1's oldest runs
    assertThat(five.mergeShapes()).isNotEmpty();
    assertThat(strata.isMergeLaggingLocally(five)).as("5 > 2(T-1) = 4").isTrue();
    assertThat(paper.isMergeLaggingLocally(five)).as("5 <= 2T = 6").isFalse();
    five.newest(0, 1).newest(0, 1);
    assertThat(paper.isMergeLaggingLocally(five)).as("7 > 2T = 6").isTrue();
    // The global constraint with three levels seen: 2(T-1)L = 12 against 2TL = 18.
    strata.isMergeLagging(five);
    paper.isMergeLagging(five);
    assertThat(strata.componentConstraint()).isEqualTo(12);
    assertThat(paper.componentConstraint()).isEqualTo(18);
  }

  /**
   * Pairwise leveling: level 1's component and two flushed runs, one of them being merged into
   * it. Strata's default gives the flushed level two runs of its own (2(L+1) in all, looser than
   * the global 2L); Luo & Carey's levels are L1..L3, the flushes going into level 1.
   */
  @Test
  void levelingCountsTheFlushedRunsTowardLevelOne() {
    MergePolicy strata = policy("leveling", "size-ratio", "10", "pairwise", "true");
    MergePolicy paper = policy("leveling", "size-ratio", "10", "pairwise", "true",
        "constraint-counts", "luo-carey");
    PolicyTestHost tree = new PolicyTestHost().largestFlush(1).newest(3, 500).newest(2, 50)
        .newest(1, 5).newest(0, 1).newest(0, 1);
    tree.decide(strata, false);
    assertThat(tree.mergeShapes()).containsExactly("0:1 1:5 -> 1");
    assertThat(strata.isMergeLaggingLocally(tree)).isFalse();
    assertThat(paper.isMergeLaggingLocally(tree)).as("three runs in level 1").isTrue();
    paper.isMergeLagging(tree); // both have now seen three levels: 2L = 6 either way
    assertThat(paper.componentConstraint()).isEqualTo(6).isEqualTo(strata.componentConstraint());
  }

  /** Fluid leveling counts alike either way; other corners and unknown values are refused. */
  @Test
  void otherPoliciesAndValuesAreRefused() {
    PolicyTestHost tree = new PolicyTestHost().largestFlush(1).newest(2, 9).newest(1, 1)
        .newest(1, 1).newest(1, 1);
    MergePolicy strata = policy("leveling", "size-ratio", "3", "preemptive", "false");
    MergePolicy paper = policy("leveling", "size-ratio", "3", "preemptive", "false",
        "constraint-counts", "luo-carey");
    tree.decide(strata, false);
    assertThat(paper.isMergeLaggingLocally(tree)).isEqualTo(strata.isMergeLaggingLocally(tree));
    assertThatThrownBy(() -> policy("tiering", "constraint-counts", "paper"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("constraint-counts").hasMessageContaining("luo-carey, strata");
    assertThatThrownBy(() -> policy("lazy-leveling", "constraint-counts", "luo-carey"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("constraint-counts");
    assertThatThrownBy(() -> new FluidMergePolicy(10, 3, 1, false, true, 0, true))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leveling");
  }
}
