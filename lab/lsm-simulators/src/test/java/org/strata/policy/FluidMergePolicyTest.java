package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.testing.PolicyTestHost;
import org.strata.sim.merge.MergeSimulator;

class FluidMergePolicyTest {
  private static MergePolicy policy(String name, String... kv) {
    Map<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Plugins.mergePolicy(new NamedPlugin(name, m));
  }

  /** Runs of the simulator after n uniform flushes, as a string "level:size" newest first. */
  private static String shape(MergeSimulator sim) {
    StringBuilder b = new StringBuilder();
    for (RunInfo r : sim.runs()) {
      b.append(b.length() == 0 ? "" : " ").append(Math.max(1, r.level())).append(':')
          .append(r.sizeBytes());
    }
    return b.toString();
  }

  /** Flushes {@code flushes} one by one; after each the runs must have the next shape. */
  private static void assertShapes(MergeSimulator sim, long[] flushes, String[] expected) {
    assertThat(expected).hasSameSizeAs(flushes);
    for (int i = 0; i < flushes.length; i++) {
      sim.flush(flushes[i]);
      assertThat(shape(sim)).as("after flush %d", i + 1).isEqualTo(expected[i]);
    }
  }

  @Test
  void aRunLeftBelowADeeperRunIsMergedWithThatLevelNotStranded() {
    // Leveling, T = 2, M = 1 unit. A level-1 run (1 unit) was still being merged when the newer
    // level-1 runs were pushed down past it, so a level-2 run (2 units) now sits above it; then
    // ten flushes arrive. Read by stored levels, level 1 is split around the level-2 run: no
    // stretch of it is contiguous, the newest run has no room to absorb, and no merge is ever
    // scheduled while flushes pile up (seen on the engine: 54 level-1 runs, nothing merging).
    MergePolicy leveling = policy("leveling", "size-ratio", "2");
    PolicyTestHost tree = new PolicyTestHost().largestFlush(1).newest(1, 1).newest(2, 2);
    for (int f = 0; f < 10; f++) {
      tree.newest(0, 1);
    }
    tree.decide(leveling, false);
    // The old run belongs to level 2 by position: it is absorbed into the level-2 run.
    assertThat(tree.mergeShapes()).containsExactly("2:2 1:1 -> 2");
    tree.decide(leveling, false);
    // Level 1, now contiguous, is pushed down beside the level-2 merge under way.
    assertThat(tree.mergeShapes()).hasSize(2);
    assertThat(tree.mergeShapes().get(1)).isEqualTo("0:1 ".repeat(10).strip() + " -> 2");
  }

  @Test
  void tieringMergesTRunsIntoTheNextLevel() {
    MergeSimulator sim = new MergeSimulator(policy("tiering", "size-ratio", "3"));
    String[] expected = {"1:1", "1:1 1:1", "2:3", "1:1 2:3", "1:1 1:1 2:3", "2:3 2:3",
        "1:1 2:3 2:3", "1:1 1:1 2:3 2:3", "3:9"};
    for (String e : expected) {
      sim.flush(1);
      assertThat(shape(sim)).isEqualTo(e);
    }
    // Flushed 9; merges wrote 3 + 3 + 9.
    assertThat(sim.checkpoint().writeAmplification()).isCloseTo(24.0 / 9, within(1e-12));
  }

  @Test
  void tieringCountsArrivalsWhenFlushedRunsDifferInSize() {
    // Flushed runs are a little smaller than the largest one (M = 1000), as real flushes are.
    // Read in exact bytes, the second flush (990) looks like a run with room and is merged with
    // the third, and three flushes (2,970 < 3·M) do not fill level 1: tiering merged pairs and
    // waited for a fourth arrival. Rounded to arrivals, every flushed run stays a run of its own
    // until the third arrives, and all three move down together.
    MergeSimulator sim = new MergeSimulator(policy("tiering", "size-ratio", "3"));
    long[] flushes = {1000, 990, 985, 995, 980, 990, 1000, 985, 990};
    String[] expected = {"1:1000", "1:990 1:1000", "2:2975", "1:995 2:2975",
        "1:980 1:995 2:2975", "2:2965 2:2975", "1:1000 2:2965 2:2975",
        "1:985 1:1000 2:2965 2:2975", "3:8915"};
    assertShapes(sim, flushes, expected);
  }

  @Test
  void levelingAbsorbsTMinusOneArrivalsWhenFlushedRunsDifferInSize() {
    // The same sizes under leveling, T = 3: level 1 takes two arrivals and the third carries it
    // down. In exact bytes the level's run, 1,990 after two arrivals, is below 2·M = 2,000, has
    // room for a third, and level 1 moves down only at the fourth arrival.
    MergeSimulator sim = new MergeSimulator(policy("leveling", "size-ratio", "3"));
    long[] flushes = {1000, 990, 985};
    String[] expected = {"1:1000", "1:1990", "2:2975"};
    assertShapes(sim, flushes, expected);
  }

  @Test
  void levelingMergesEveryArrivalIntoTheLevelUntilItIsFull() {
    MergeSimulator sim = new MergeSimulator(policy("leveling", "size-ratio", "3"));
    String[] expected = {"1:1", "1:2", "2:3", "1:1 2:3", "1:2 2:3", "2:6", "1:1 2:6",
        "1:2 2:6", "3:9"};
    for (String e : expected) {
      sim.flush(1);
      assertThat(shape(sim)).isEqualTo(e);
    }
    assertThat(sim.checkpoint().writeAmplification()).isCloseTo(33.0 / 9, within(1e-12));
  }

  @Test
  void levelCountsStayWithinKAndZ() {
    for (String[] p : new String[][] {{"leveling", "1", "1"}, {"tiering", "4", "4"},
        {"lazy-leveling", "4", "1"}, {"fluid", "2", "3"}}) {
      MergePolicy policy = p[0].equals("fluid")
          ? policy("fluid", "size-ratio", "5", "K", p[1], "Z", p[2])
          : policy(p[0], "size-ratio", "5");
      int kk = Integer.parseInt(p[1]);
      int zz = Integer.parseInt(p[2]);
      MergeSimulator sim = new MergeSimulator(policy);
      for (int f = 0; f < 20_000; f++) {
        sim.flush(1);
        int largest = 1;
        for (RunInfo r : sim.runs()) {
          largest = Math.max(largest, Math.max(1, r.level()));
        }
        int[] counts = new int[largest + 2];
        for (RunInfo r : sim.runs()) {
          counts[Math.max(1, r.level())]++;
        }
        for (int level = 1; level <= largest; level++) {
          // At most K runs (Z at the largest level) plus the newest, not yet absorbed arrival.
          int bound = (level == largest ? zz : kk) + (level == 1 ? 1 : 0);
          assertThat(counts[level]).as("%s level %d after %d flushes: %s", p[0], level, f + 1,
              shape(sim)).isLessThanOrEqualTo(bound);
        }
      }
    }
  }

  @Test
  void lazyLevelingWritesLessThanLevelingAndMoreThanTiering() {
    double lev = run(policy("leveling", "size-ratio", "10"));
    double lazy = run(policy("lazy-leveling", "size-ratio", "10"));
    double tier = run(policy("tiering", "size-ratio", "10"));
    assertThat(lazy).isLessThan(lev);
    assertThat(tier).isLessThan(lazy);
  }

  private static double run(MergePolicy p) {
    MergeSimulator sim = new MergeSimulator(p);
    for (int f = 0; f < 50_000; f++) {
      sim.flush(1);
    }
    return sim.checkpoint().writeAmplification();
  }

  @Test
  void dynamicLevelSizeSizesUpperLevelsFromTheLargest() {
    MergeSimulator fixed = new MergeSimulator(policy("leveling", "size-ratio", "10"));
    MergeSimulator dynamic = new MergeSimulator(policy("leveling", "size-ratio", "10",
        "dynamic-level-size", "true"));
    for (int f = 0; f < 1500; f++) {
      fixed.flush(1);
      dynamic.flush(1);
      // Every level above the largest stays within its dynamic capacity plus one arrival.
      long largest = 0;
      int deepest = 0;
      for (RunInfo r : dynamic.runs()) {
        if (r.level() > deepest) {
          deepest = r.level();
          largest = r.sizeBytes();
        }
      }
      for (RunInfo r : dynamic.runs()) {
        if (r.level() >= 2 && r.level() < deepest) {
          double nominal = Math.max(1, largest / Math.pow(10, deepest - r.level()) / 9);
          assertThat((double) r.sizeBytes()).as("level %d after %d flushes: %s", r.level(),
              f + 1, shape(dynamic)).isLessThanOrEqualTo(10 * nominal + 1e-9);
        }
      }
    }
    assertThat(shape(dynamic)).isNotEqualTo(shape(fixed));
  }

  @Test
  void reshapeAppliesToLaterMerges() {
    FluidMergePolicy policy = new FluidMergePolicy(4, 3, 3);
    MergeSimulator sim = new MergeSimulator(policy);
    for (int f = 0; f < 200; f++) {
      sim.flush(1);
    }
    int tieredRuns = sim.runs().size();
    policy.reshape(4, 1, 1);
    assertThat(policy.levelShape().orElseThrow())
        .isEqualTo(new org.strata.lsm.spi.LevelShape(4, 1, 1));
    for (int f = 0; f < 200; f++) {
      sim.flush(1);
    }
    long total = 0;
    for (RunInfo r : sim.runs()) {
      total += r.sizeBytes();
    }
    assertThat(total).isEqualTo(400);
    assertThat(sim.runs().size()).isLessThan(tieredRuns);
    int largest = 1;
    for (RunInfo r : sim.runs()) {
      largest = Math.max(largest, Math.max(1, r.level()));
    }
    int[] counts = new int[largest + 1];
    for (RunInfo r : sim.runs()) {
      counts[Math.max(1, r.level())]++;
    }
    for (int level = 2; level < largest; level++) {
      assertThat(counts[level]).as("runs at level %d after reshape: %s", level, shape(sim))
          .isLessThanOrEqualTo(1);
    }
  }
}
