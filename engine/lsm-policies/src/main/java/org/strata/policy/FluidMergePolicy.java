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

/**
 * Dostoevsky's Fluid LSM-tree with full merges (docs/papers/dostoevsky.md#fluid-merge-rules):
 * size ratio T, at most K runs at levels 1..L−1 and Z runs at the largest level L. Leveling (K = Z
 * = 1), tiering (K = Z = T−1) and Lazy Leveling (K = T−1, Z = 1) are the named corners; the {@code
 * leveling}, {@code tiering}, {@code lazy-leveling} and {@code fluid} policies are this class.
 *
 * <p>Levels. Flushed runs (stored level 0) belong to level 1; merge outputs carry their level. An
 * arrival at level i has the nominal size n(i) = M·T^(i−1), M being the largest flushed run of the
 * index ({@link MergeContext#largestFlushBytes()}, which survives restarts, or the largest seen);
 * a level is full once it has absorbed T−1 arrivals, (T−1)·n(i) bytes. Sizes stand for entries, so
 * overwrites and deletes that shrink runs delay fullness as that page asks.
 *
 * <p>Rules, checked from the deepest level up, one merge per level at a time, never touching a run
 * that is already merging. At a level of one run (K or Z = 1), runs that are being merged down
 * are leaving it: the rules look at the newer runs before them, which form the level's next
 * component meanwhile (bLSM's C_i' pattern), so one long merge does not stop the levels above it:
 *
 * <ol>
 *   <li>Push: when the runs of level i hold T·n(i) bytes (a full level plus an arrival), they are
 *       merged and pushed down; deeper levels that are full are included (preemptive merging, App.
 *       D), and the output joins the next level's active run (its newest) when that run has room.
 *       A deeper level that is busy being pushed itself is not waited for: the output becomes a
 *       new run there (bLSM's C1' pattern), so merges of different levels run concurrently.
 *   <li>Absorb: when the newest run of level i is a single arrival and the run before it (the
 *       active run) holds less than g·n(i), with g = ceil((T−1)/K) (Z at the largest level), the
 *       two are merged at level i.
 * </ol>
 *
 * Tiering therefore merges T flushed runs into one run of the next level; leveling merges every
 * arrival into the level's single run until it holds (T−1)·n(i), then the next arrival carries it
 * down (docs/papers/luo-carey.md#leveling, #tiering). The largest level L is the deepest level
 * holding a run.
 *
 * <p>Component constraint: twice the expected count, 2·(K·(L−1) + Z) with the current L (for
 * tiering this is 2·(T−1)·L, Luo & Carey's 2·T·L up to the arrival being merged); the local
 * constraint allows 2·K runs per level (2·Z at the largest). With {@code luoCareyCounts} the
 * counts are Luo & Carey's (their section 5.1.1, "2·L components for leveling and 2·T·L components
 * for tiering", and 2·T per tiering level for the local variant, in 5.2.3): a level of tiering
 * is expected to hold T components, the T that are merged when it is full, where these rules
 * count the T − 1 runs before the arrival that fills it. Defined for leveling and tiering only.
 */
public final class FluidMergePolicy implements MergePolicy {
  /**
   * Sizes are compared in arrivals rounded to the nearest one, a half rounded down: a level or
   * run holds {@code a} arrivals once it holds more than {@code a − HALF} of them. Flushed runs
   * differ in size by a few percent (the largest one is M), so an exact byte comparison would
   * take a run just under its nominal size for a run with room, and a tiering level of T
   * such runs for a level that is not yet full: tiering would merge pairs of flushed runs and
   * wait for T + 1 arrivals. Overwrites and deletes that shrink runs by half an arrival or more
   * still delay fullness.
   */
  private static final double HALF = 0.5;

  // Changed only by reshape(), which runs on the policy's thread like every other call but
  // levelShape(); that one reads the volatile shape, published after the three fields.
  private int t;
  private int k;
  private int z;
  private volatile LevelShape shape;
  private final boolean dynamicLevelSize;
  private final boolean preemptive;
  private final int maxComponents;
  private final boolean luoCareyCounts;
  private long flushSize;
  private double[] dynamicNominal = new double[0];
  private int levelsSeen = 1;
  /** Run id to the level the rules give it in the current call (see {@link #level}). */
  private final Map<Long, Integer> positionalLevels = new HashMap<>();

  /**
   * @param t size ratio, at least 2
   * @param k runs bound at levels below the largest, 1..T−1
   * @param z runs bound at the largest level, 1..T−1
   */
  public FluidMergePolicy(int t, int k, int z) {
    this(t, k, z, false);
  }

  /**
   * @param dynamicLevelSize RocksDB's dynamic level size: the levels above the largest get
   *     capacities of S_L / T^(L−i) from the largest level's actual size S_L, so the largest level
   *     stays nearly full and the slack goes to the ratio between flushes and level 1
   */
  public FluidMergePolicy(int t, int k, int z, boolean dynamicLevelSize) {
    this(t, k, z, dynamicLevelSize, true, 0);
  }

  /**
   * @param preemptive whether a push into a full level merges that level along (Dostoevsky's
   *     preemptive merging); if false the push forms a new run there and the full level is pushed
   *     down by a merge of its own (Luo & Carey: one merge per level)
   * @param maxComponents the global component constraint; 0 for twice the expected count
   */
  public FluidMergePolicy(int t, int k, int z, boolean dynamicLevelSize, boolean preemptive,
      int maxComponents) {
    this(t, k, z, dynamicLevelSize, preemptive, maxComponents, false);
  }

  /**
   * @param luoCareyCounts whether the component constraints count as Luo & Carey do (2·T per
   *     tiering level, 2·T·L in all; leveling as by default); only for leveling (K = Z = 1) and
   *     tiering (K = Z = T−1)
   */
  public FluidMergePolicy(int t, int k, int z, boolean dynamicLevelSize, boolean preemptive,
      int maxComponents, boolean luoCareyCounts) {
    if (t < 2 || k < 1 || k > t - 1 || z < 1 || z > t - 1) {
      throw new IllegalArgumentException("need T >= 2 and 1 <= K, Z <= T-1");
    }
    if (luoCareyCounts && !(k == z && (k == 1 || k == t - 1))) {
      throw new IllegalArgumentException("Luo & Carey's component counts are defined for"
          + " leveling (K = Z = 1) and tiering (K = Z = T-1) only, got K = " + k + ", Z = " + z);
    }
    this.luoCareyCounts = luoCareyCounts;
    this.t = t;
    this.k = k;
    this.z = z;
    this.shape = new LevelShape(t, k, z);
    this.dynamicLevelSize = dynamicLevelSize;
    this.preemptive = preemptive;
    this.maxComponents = maxComponents;
  }

  /** T, K and Z, as of the last {@link #reshape}; safe to call from any thread. */
  @Override
  public Optional<LevelShape> levelShape() {
    return Optional.of(shape);
  }

  /**
   * Changes T, K and Z for the merges decided from now on; merges already scheduled or running
   * finish as they were chosen, and the runs on disk stay where they are (the new rules see them
   * at their levels). Called on the policy's thread, between its other calls. The flush size and
   * the levels seen are kept.
   *
   * @throws IllegalArgumentException as the constructor, or if the policy counts components as
   *     Luo &amp; Carey do (defined for fixed corners only)
   */
  public void reshape(int newT, int newK, int newZ) {
    if (newT < 2 || newK < 1 || newK > newT - 1 || newZ < 1 || newZ > newT - 1) {
      throw new IllegalArgumentException("need T >= 2 and 1 <= K, Z <= T-1");
    }
    if (luoCareyCounts) {
      throw new IllegalArgumentException("a policy with Luo & Carey's component counts cannot"
          + " be reshaped");
    }
    t = newT;
    k = newK;
    z = newZ;
    dynamicNominal = new double[0];
    shape = new LevelShape(newT, newK, newZ);
  }

  /**
   * The level the rules give a run: its stored level (flushed runs count as level 1), raised to
   * the deepest level of any newer run. Positions order the data, so a run older than a level-i
   * run belongs to level i or deeper whatever level it was written at. A run can end up below a
   * shallower level's run when a level's newer runs are pushed down while its older runs are
   * still being merged among themselves (an absorb that outlasts a push); read by its stored
   * level it would split its level in two, no stretch of that level would ever be contiguous
   * again, and the level would collect runs without bound with no merge scheduled.
   */
  private int level(RunInfo r) {
    Integer positional = positionalLevels.get(r.runId());
    return positional != null ? positional : Math.max(1, r.level());
  }

  /** Recomputes {@link #positionalLevels} for {@code runs} (newest first). */
  private void rankByPosition(List<RunInfo> runs) {
    positionalLevels.clear();
    int deepest = 1;
    for (RunInfo r : runs) {
      deepest = Math.max(deepest, Math.max(1, r.level()));
      positionalLevels.put(r.runId(), deepest);
    }
  }

  private double nominal(int level) {
    if (level < dynamicNominal.length && dynamicNominal[level] > 0) {
      return Math.max(flushSize, dynamicNominal[level]);
    }
    return flushSize * Math.pow(t, level - 1);
  }

  /** Bytes at a level in arrivals of its nominal size. */
  private double arrivals(long bytes, int level) {
    return bytes / nominal(level);
  }

  /** Recomputes the dynamic level sizes from the largest level (levels above it only). */
  private void updateDynamicSizes(List<RunInfo> runs, int largest) {
    dynamicNominal = new double[largest + 1];
    if (!dynamicLevelSize || largest < 2) {
      return;
    }
    long lastSize = size(levelRuns(runs, largest));
    for (int i = 1; i < largest; i++) {
      dynamicNominal[i] = lastSize / Math.pow(t, largest - i) / (t - 1);
    }
  }

  private int growth(int level, int largest) {
    int bound = level >= largest ? z : k;
    return (t - 1 + bound - 1) / bound;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    rankByPosition(runs);
    if (fullMergeRequested) {
      if (!StackPolicies.anyMerging(runs) && runs.size() > 1) {
        int deepest = 1;
        for (RunInfo r : runs) {
          deepest = Math.max(deepest, level(r));
        }
        return List.of(MergeRequest.ofRuns(runs, deepest));
      }
      return List.of();
    }
    // M survives restarts through the context; the flushed runs in view cover contexts that do
    // not keep it.
    flushSize = Math.max(flushSize, index.largestFlushBytes());
    for (RunInfo r : runs) {
      if (r.level() == 0) {
        flushSize = Math.max(flushSize, r.sizeBytes());
      }
    }
    if (flushSize == 0 || runs.isEmpty()) {
      return List.of();
    }
    int largest = 1;
    for (RunInfo r : runs) {
      largest = Math.max(largest, level(r));
    }
    levelsSeen = Math.max(levelsSeen, largest);
    updateDynamicSizes(runs, largest);
    for (int level = largest; level >= 1; level--) {
      List<RunInfo> all = levelRuns(runs, level);
      if (all.isEmpty()) {
        continue;
      }
      // Runs of a level that are being merged down are leaving it; the newer runs before them
      // form the level's next component meanwhile (bLSM's C_i' pattern), so a long merge below
      // does not stop the levels above from merging.
      // Only levels of one run (leveling's) form a next component that way; tiered levels
      // collect runs anyway and wait until none of theirs is merging.
      boolean oneRun = (level >= largest ? z : k) == 1;
      List<RunInfo> here = oneRun ? idlePrefix(all) : all;
      boolean busy = here.size() < all.size();
      // One merge per call: the engine calls again after every flush and merge, so merges at
      // other levels start then, concurrently with this one.
      MergeRequest r = push(runs, level, here, busy, largest);
      if (r == null) {
        r = absorb(runs, level, here, largest);
      }
      if (r != null) {
        return List.of(r);
      }
    }
    return List.of();
  }

  /** Runs of one level, newest first (flushed runs count as level 1). */
  private List<RunInfo> levelRuns(List<RunInfo> runs, int level) {
    List<RunInfo> out = new ArrayList<>();
    for (RunInfo r : runs) {
      if (level(r) == level) {
        out.add(r);
      }
    }
    return out;
  }

  /** The newest runs of a level up to its first merging run. */
  private static List<RunInfo> idlePrefix(List<RunInfo> levelRuns) {
    int n = 0;
    while (n < levelRuns.size() && !levelRuns.get(n).merging()) {
      n++;
    }
    return levelRuns.subList(0, n);
  }

  private static long size(List<RunInfo> rs) {
    long s = 0;
    for (RunInfo r : rs) {
      s += r.sizeBytes();
    }
    return s;
  }

  /** The merge pushing level {@code level} down, if it is full, else null. */
  private MergeRequest push(List<RunInfo> runs, int level, List<RunInfo> here, boolean busy,
      int largest) {
    if (here.isEmpty() || StackPolicies.anyMerging(here)
        || arrivals(size(here), level) <= t - HALF) {
      return null;
    }
    List<RunInfo> window = new ArrayList<>(here);
    int target = level + 1;
    if (!contiguous(runs, window)) {
      return null; // a run of another level sits between them; wait for it to move on
    }
    if (busy) {
      // Older runs of this level are still merging down, so nothing below is contiguous with
      // the window: its output becomes a new run of the next level.
      return MergeRequest.ofRuns(window, target);
    }
    while (true) {
      List<RunInfo> next = levelRuns(runs, target);
      List<RunInfo> nextIdle = idlePrefix(next);
      boolean nextBusy = nextIdle.size() < next.size();
      if (preemptive && !nextBusy && !next.isEmpty()
          && arrivals(size(next), target) > t - 1 - HALF) {
        window.addAll(next); // the next level is full too: merge it along (preemptive)
        target++;
        continue;
      }
      // Join the newest idle run of the target level when it has room. If the level's older
      // runs are being pushed down, that run is the level's next component forming meanwhile (as
      // bLSM's C1' forms while C1 merges), so merges of different levels overlap. A full level
      // that is not merged along gets a new run and then pushes itself down.
      if (!nextIdle.isEmpty() && arrivals(nextIdle.get(0).sizeBytes(), target)
          <= growth(target, Math.max(largest, target)) - HALF) {
        List<RunInfo> joined = new ArrayList<>(window);
        joined.add(nextIdle.get(0));
        if (contiguous(runs, joined)) {
          window = joined;
        }
      }
      break;
    }
    return MergeRequest.ofRuns(window, target);
  }

  /** The merge of a level's newest run (one arrival) into the run before it, if it has room. */
  private MergeRequest absorb(List<RunInfo> runs, int level, List<RunInfo> here, int largest) {
    if (here.size() < 2) {
      return null;
    }
    RunInfo arrival = here.get(0);
    RunInfo active = here.get(1);
    if (arrival.merging() || active.merging()) {
      return null;
    }
    boolean single = arrivals(arrival.sizeBytes(), level) <= 1 + HALF;
    boolean room = arrivals(active.sizeBytes(), level) <= growth(level, largest) - HALF;
    return single && room && contiguous(runs, List.of(arrival, active))
        ? MergeRequest.ofRuns(List.of(arrival, active), level) : null;
  }

  /** Whether {@code window} is a contiguous stretch of {@code runs} (newest first). */
  private static boolean contiguous(List<RunInfo> runs, List<RunInfo> window) {
    int at = -1;
    for (int i = 0; i < runs.size(); i++) {
      if (runs.get(i).runId() == window.get(0).runId()) {
        at = i;
        break;
      }
    }
    if (at < 0 || at + window.size() > runs.size()) {
      return false;
    }
    for (int i = 0; i < window.size(); i++) {
      if (runs.get(at + i).runId() != window.get(i).runId()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int componentConstraint() {
    if (maxComponents > 0) {
      return maxComponents;
    }
    return 2 * (expected(k) * (levelsSeen - 1) + expected(z));
  }

  /** The components a level whose runs bound is {@code bound} is expected to hold. */
  private int expected(int bound) {
    return luoCareyCounts && bound > 1 ? t : bound;
  }

  @Override
  public boolean isMergeLaggingLocally(MergeContext index) {
    List<RunInfo> runs = index.runs();
    rankByPosition(runs);
    if (!StackPolicies.anyMerging(runs)) {
      return false;
    }
    int largest = 1;
    for (RunInfo r : runs) {
      largest = Math.max(largest, level(r));
    }
    for (int level = 1; level <= largest; level++) {
      int bound = expected(level >= largest ? z : k);
      if (levelRuns(runs, level).size() > 2 * bound) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    List<RunInfo> runs = index.runs();
    // The deepest stored level is the deepest level by position too: no ranking needed here.
    for (RunInfo r : runs) {
      levelsSeen = Math.max(levelsSeen, Math.max(1, r.level()));
    }
    return index.diskComponentCount() > componentConstraint() && StackPolicies.anyMerging(runs);
  }
}
