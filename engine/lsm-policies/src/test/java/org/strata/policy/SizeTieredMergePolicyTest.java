package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.testing.PolicyTestHost;

class SizeTieredMergePolicyTest {
  /** Runs of the given sizes, newest first, on the shared test host. */
  static PolicyTestHost host(long... sizesNewestFirst) {
    PolicyTestHost h = new PolicyTestHost();
    for (int i = sizesNewestFirst.length - 1; i >= 0; i--) {
      h.newest(0, sizesNewestFirst[i]); // the oldest first, so ids grow towards the newest
    }
    return h;
  }

  private static MergePolicy policy(String... kv) {
    Map<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Plugins.mergePolicy(new NamedPlugin("size-tiered", m));
  }

  @Test
  void figure18ShapeSkipsTheLargeOldRunThenMergesTheSmallOnes() {
    // Newest first: 64, 64, 128 MB | 1 GB | 5, 6, 8, 10 GB | 100 GB (T = 1.2, min 2, max 4).
    long mb = 1L << 20;
    long gb = 1L << 30;
    PolicyTestHost r = host(64 * mb, 64 * mb, 128 * mb, gb, 5 * gb, 6 * gb, 8 * gb, 10 * gb,
        100 * gb);
    MergePolicy p = policy("size-ratio", "1.2", "min-merge", "2", "max-merge", "4");
    r.decide(p, false);
    assertThat(r.mergedSizes()).containsExactly(List.of(5 * gb, 6 * gb, 8 * gb, 10 * gb));
    // The next execution only sees the prefix that is not merging: 64, 64, 128 MB, 1 GB.
    r.decide(p, false);
    assertThat(r.mergedSizes().get(1)).containsExactly(64 * mb, 64 * mb, 128 * mb);
  }

  @Test
  void mergeExactlyMinTakesTwo() {
    PolicyTestHost r = host(10, 10, 10, 10, 10);
    r.decide(policy("merge-exactly-min", "true"), false);
    assertThat(r.mergedSizes()).containsExactly(List.of(10L, 10L));
    PolicyTestHost all = host(10, 10, 10, 10, 10);
    all.decide(policy(), false);
    assertThat(all.mergedSizes()).containsExactly(List.of(10L, 10L, 10L, 10L, 10L));
  }

  @Test
  void constraintIsMaxComponentCount() {
    assertThat(policy().componentConstraint()).isEqualTo(50);
    assertThat(policy("max-component-count", "7").componentConstraint()).isEqualTo(7);
  }
}
