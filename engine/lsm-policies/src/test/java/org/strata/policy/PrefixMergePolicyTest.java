package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.testing.PolicyTestHost;

class PrefixMergePolicyTest {
  private static MergePolicy prefix(String max, String tolerance) {
    return Plugins.mergePolicy(new NamedPlugin("prefix", Map.of("max-mergable-component-size",
        max, "max-tolerance-component-count", tolerance)));
  }

  @Test
  void mergesOnceTheToleranceIsReachedAndNeverTouchesLargeRuns() {
    // Newest first: three 32 MB runs, 64 MB, and a run just above the 1 GB cap.
    long mb = 1L << 20;
    PolicyTestHost r = SizeTieredMergePolicyTest.host(32 * mb,
        32 * mb, 32 * mb, 64 * mb, 1024 * mb + 1);
    r.decide(prefix("1GB", "3"), false);
    assertThat(r.mergedSizes()).containsExactly(List.of(32 * mb, 32 * mb, 32 * mb, 64 * mb));
    // 192 MB is not below 1.2 x (32 + 32) MB, and two runs are under the tolerance: no merge.
    PolicyTestHost none = SizeTieredMergePolicyTest.host(32 * mb,
        32 * mb, 192 * mb);
    none.decide(prefix("1GB", "3"), false);
    assertThat(none.mergedSizes()).isEmpty();
  }

  @Test
  void runsAlreadyBeingMergedDoNotCountTowardTheLag() {
    // Tolerance 3: three runs are being merged, one new run arrives. As in AsterixDB, only the
    // runs the policy could merge now count, so one new run does not hold writes back.
    PolicyTestHost r = SizeTieredMergePolicyTest.host(1, 1, 1, 2);
    MergePolicy p = prefix("1000", "3");
    r.decide(p, false);
    assertThat(r.mergedSizes()).containsExactly(List.of(1L, 1L, 1L, 2L));
    r.newest(0, 1);
    assertThat(p.isMergeLagging(r)).isFalse();
    // Three new runs while the merge runs: the policy would merge them, so writes wait.
    for (int id = 10; id < 12; id++) {
      r.newest(0, 1);
    }
    assertThat(p.isMergeLagging(r)).isTrue();
  }

  @Test
  void ratioCheckSkipsAnOldRunThatIsTooLarge() {
    PolicyTestHost r = SizeTieredMergePolicyTest.host(1, 1, 1, 100);
    r.decide(prefix("1000", "3"), false);
    assertThat(r.mergedSizes()).containsExactly(List.of(1L, 1L, 1L));
  }
}
