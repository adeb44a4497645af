package org.strata.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.strata.lsm.spi.LevelShape;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;

/**
 * Luo & Carey's leveling with full merges (their sections 2.2 and 5.1.3), the {@code leveling}
 * policy with {@code pairwise=true}: every merge takes one component of level i into the one
 * component of level i+1, a level is merged down on its own as soon as it is full, and each level
 * has at most one merge leaving it. The paper's greedy scheduler relies on the first rule ("both
 * the leveling and tiering merge policies always merge the same number of disk components at
 * once"), and its measured maximum relies on the last ("there can be at most one active merge
 * operation per level").
 *
 * <p>Levels. Flushed runs are level 0. Level i ≥ 1 holds one component of at most (T−1)·M·T^(i−1)
 * bytes, M being the largest flushed run ({@link MergeContext#largestFlushBytes()} or the largest
 * seen); with {@code dynamic-level-size} the levels above the largest L hold S_L / T^(L−i), S_L
 * being the largest level's size, as in {@link FluidMergePolicy}. Sizes stand for entries, so
 * overwrites that shrink a level delay its fullness.
 *
 * <p>Rules, for each level i from the deepest up to 0 (all eligible merges are scheduled in one
 * call; the policy keeps no state beyond M and the most levels seen):
 *
 * <ol>
 *   <li>The source is the oldest run of level i that is not merging: for level 0 any flushed run,
 *       for level i ≥ 1 only a full one.
 *   <li>If the run just older than it is level i+1's component, not merging and not full, the two
 *       are merged into level i+1.
 *   <li>If level i+1 has no component, or its component is itself being merged down, the source
 *       alone becomes level i+1's component (a one-component merge: contexts have no metadata-only
 *       level move). This is bLSM's C_i' pattern: a new component of level i+1 forms while the
 *       old one merges down, so one long merge does not stop the levels above it.
 *   <li>Otherwise the source waits: an older run of level i is still being merged down (so at
 *       most one merge leaves a level at a time), or level i+1's component is full and waits for
 *       its own merge down.
 * </ol>
 *
 * <p>Component constraint: 2·L (twice the expected L components), L being the most levels seen;
 * the local constraint allows two runs per level, level 0 included. With {@code luoCareyCounts}
 * the flushed runs count toward level 1, as the paper's flushes go into level 1 (its levels are
 * L1..L3, the memory component its level 0): two runs per level for levels 1..L, 2·L in all, no
 * looser than the global constraint.
 */
public final class PairwiseLevelingPolicy implements MergePolicy {
  private static final double SLACK = 1e-9;

  private final int t;
  private final boolean dynamicLevelSize;
  private final int maxComponents;
  private final boolean luoCareyCounts;
  private long flushSize;
  private int levelsSeen = 1;

  /**
   * @param t size ratio, at least 2
   * @param dynamicLevelSize whether the levels above the largest take their capacities from the
   *     largest level's size (RocksDB's dynamic level size)
   * @param maxComponents the global component constraint; 0 for 2·L
   */
  public PairwiseLevelingPolicy(int t, boolean dynamicLevelSize, int maxComponents) {
    this(t, dynamicLevelSize, maxComponents, false);
  }

  /**
   * @param luoCareyCounts whether the local constraint counts level 0's flushed runs toward level
   *     1, as Luo & Carey's levels do
   */
  public PairwiseLevelingPolicy(int t, boolean dynamicLevelSize, int maxComponents,
      boolean luoCareyCounts) {
    this.luoCareyCounts = luoCareyCounts;
    if (t < 2) {
      throw new IllegalArgumentException("need T >= 2");
    }
    if (maxComponents < 0) {
      throw new IllegalArgumentException("max-components must be 0 (2·L) or positive");
    }
    this.t = t;
    this.dynamicLevelSize = dynamicLevelSize;
    this.maxComponents = maxComponents;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    if (fullMergeRequested) {
      if (!StackPolicies.anyMerging(runs) && runs.size() > 1) {
        return List.of(MergeRequest.ofRuns(runs, Math.max(1, largestLevel(runs))));
      }
      return List.of();
    }
    flushSize = Math.max(flushSize, index.largestFlushBytes());
    for (RunInfo r : runs) {
      if (r.level() == 0) {
        flushSize = Math.max(flushSize, r.sizeBytes());
      }
    }
    if (flushSize == 0 || runs.isEmpty()) {
      return List.of();
    }
    int largest = largestLevel(runs);
    levelsSeen = Math.max(levelsSeen, largest);
    double[] capacity = capacities(runs, largest);
    // Each level decides on the list with the merges chosen above it marked merging, as the host
    // will start them; every level may merge down at once.
    RunList view = RunList.of(runs);
    List<MergeRequest> out = new ArrayList<>();
    for (int level = largest; level >= 0; level--) {
      MergeRequest r = mergeDown(view.runs(), level, capacity);
      if (r != null) {
        out.add(r);
        view = view.markMerging(r);
      }
    }
    return out;
  }

  /** Level {@code i}'s merge down if its source is ready (rules 1-4 above), else null. */
  private MergeRequest mergeDown(List<RunInfo> runs, int i, double[] capacity) {
    int at = -1;
    for (int j = 0; j < runs.size(); j++) {
      if (runs.get(j).level() == i && !runs.get(j).merging()) {
        at = j; // the last one found is the oldest
      }
    }
    if (at < 0) {
      return null;
    }
    RunInfo source = runs.get(at);
    if (i >= 1 && !full(source.sizeBytes(), capacity(capacity, i))) {
      return null;
    }
    RunInfo next = at + 1 < runs.size() ? runs.get(at + 1) : null;
    if (next != null && next.level() <= i) {
      return null; // an older run of level i is still merging down: one merge leaves at once
    }
    List<RunInfo> window;
    if (next != null && next.level() == i + 1 && !next.merging()) {
      if (full(next.sizeBytes(), capacity(capacity, i + 1))) {
        return null; // level i+1 is full: its own merge down comes first
      }
      window = List.of(source, next);
    } else {
      // Level i+1 is empty, or its component is being merged down: the source becomes its
      // component.
      window = List.of(source);
    }
    return MergeRequest.ofRuns(window, i + 1);
  }

  private static boolean full(long size, double capacity) {
    return size >= capacity * (1 - SLACK);
  }

  private static int largestLevel(List<RunInfo> runs) {
    int largest = 1;
    for (RunInfo r : runs) {
      largest = Math.max(largest, r.level());
    }
    return largest;
  }

  /** Capacities of levels 1..largest (index = level); dynamic ones above the largest if asked. */
  private double[] capacities(List<RunInfo> runs, int largest) {
    double[] c = new double[largest + 1];
    long lastSize = 0;
    for (RunInfo r : runs) {
      if (r.level() == largest) {
        lastSize += r.sizeBytes();
      }
    }
    for (int i = 1; i <= largest; i++) {
      double fixed = (t - 1) * (double) flushSize * Math.pow(t, i - 1);
      c[i] = dynamicLevelSize && i < largest && largest >= 2
          ? Math.max((t - 1) * (double) flushSize, lastSize / Math.pow(t, largest - i)) : fixed;
    }
    return c;
  }

  /** Capacity of {@code level}; a level beyond the largest has the fixed capacity. */
  private double capacity(double[] c, int level) {
    return level < c.length ? c[level]
        : (t - 1) * (double) flushSize * Math.pow(t, level - 1);
  }

  @Override
  public int componentConstraint() {
    return maxComponents > 0 ? maxComponents : 2 * levelsSeen;
  }

  /** Leveling at T: one run per level (the flushed level counts as level 1). */
  @Override
  public Optional<LevelShape> levelShape() {
    return Optional.of(new LevelShape(t, 1, 1));
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    List<RunInfo> runs = index.runs();
    levelsSeen = Math.max(levelsSeen, largestLevel(runs));
    return index.diskComponentCount() > componentConstraint() && StackPolicies.anyMerging(runs);
  }

  @Override
  public boolean isMergeLaggingLocally(MergeContext index) {
    List<RunInfo> runs = index.runs();
    if (!StackPolicies.anyMerging(runs)) {
      return false;
    }
    Map<Integer, Integer> perLevel = new HashMap<>();
    for (RunInfo r : runs) {
      int level = luoCareyCounts ? Math.max(1, r.level()) : r.level();
      if (perLevel.merge(level, 1, Integer::sum) > 2) {
        return true;
      }
    }
    return false;
  }
}
