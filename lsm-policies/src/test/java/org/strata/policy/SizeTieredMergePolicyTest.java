package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.RunInfo;

class SizeTieredMergePolicyTest {
  /** Runs with given sizes (newest first) that records merges without applying them. */
  static final class Recorder implements MergeContext {
    final List<RunInfo> runs = new ArrayList<>();
    final List<List<Long>> merges = new ArrayList<>();

    Recorder(long... sizesNewestFirst) {
      long id = sizesNewestFirst.length;
      for (long s : sizesNewestFirst) {
        runs.add(new RunInfo(id, 0, List.of(new ComponentInfo("c" + id, id, id, s, s, 1,
            new byte[0], new byte[0])), false));
        id--;
      }
    }

    @Override
    public List<RunInfo> runs() {
      return List.copyOf(runs);
    }

    @Override
    public boolean scheduleMerge(List<RunInfo> window, int level, long target) {
      List<Long> sizes = new ArrayList<>();
      for (RunInfo r : window) {
        sizes.add(r.sizeBytes());
        int i = runs.indexOf(r);
        runs.set(i, new RunInfo(r.runId(), r.level(), r.components(), true));
      }
      merges.add(sizes);
      return true;
    }
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
    Recorder r = new Recorder(64 * mb, 64 * mb, 128 * mb, gb, 5 * gb, 6 * gb, 8 * gb, 10 * gb,
        100 * gb);
    MergePolicy p = policy("size-ratio", "1.2", "min-merge", "2", "max-merge", "4");
    p.diskComponentAdded(r, false);
    assertThat(r.merges).containsExactly(List.of(5 * gb, 6 * gb, 8 * gb, 10 * gb));
    // The next execution only sees the prefix that is not merging: 64, 64, 128 MB, 1 GB.
    p.diskComponentAdded(r, false);
    assertThat(r.merges.get(1)).containsExactly(64 * mb, 64 * mb, 128 * mb);
  }

  @Test
  void mergeExactlyMinTakesTwo() {
    Recorder r = new Recorder(10, 10, 10, 10, 10);
    policy("merge-exactly-min", "true").diskComponentAdded(r, false);
    assertThat(r.merges).containsExactly(List.of(10L, 10L));
    Recorder all = new Recorder(10, 10, 10, 10, 10);
    policy().diskComponentAdded(all, false);
    assertThat(all.merges).containsExactly(List.of(10L, 10L, 10L, 10L, 10L));
  }

  @Test
  void constraintIsMaxComponentCount() {
    assertThat(policy().componentConstraint()).isEqualTo(50);
    assertThat(policy("max-component-count", "7").componentConstraint()).isEqualTo(7);
  }
}
