package org.strata.policy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.strata.lsm.spi.LevelShape;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/**
 * LevelDB's partitioned leveling (Luo & Carey 6.1): flushed runs form level 0; each level i >= 1 is
 * one run range-partitioned into files of at most {@code file-size}. Scores: level 0 = (flushed
 * runs) / {@code l0-trigger}; level i = (bytes of level i) / ({@code level1-size} · T^(i−1)). The
 * level with the largest score merges when that score is at least 1: level 0 merges all its runs
 * (or exactly the {@code l0-trigger} oldest with {@code merge-exactly-l0-trigger}, the paper's
 * testing-phase fix) with the overlapping level-1 files; level i merges one file, chosen
 * round-robin in key order or as the file with the fewest overlapping files at level i+1 ({@code
 * selection = choose-best}), with its overlapping files at level i+1.
 *
 * <p>With {@code trivial-move}, a merge that would take one file and nothing at the next level,
 * and whose file overlaps at most ten files' worth of bytes ({@code 10 x file-size}) at the level
 * after that, is a metadata-only move of the file one level down instead: nothing is rewritten
 * (LevelDB's and RocksDB's trivial move; the bound on the level after keeps a moved file from
 * making a later merge of it too large). Off by default: Luo and Carey's description has no such
 * move, and the reproductions follow it. A host that cannot move files (one without {@link
 * MergeContext.Capability#ROUTED_MERGES}: the simulators) gets the one-file merge instead.
 *
 * <p>One merge at a time, like LevelDB's single background thread. A {@code level1-size} of 0 uses
 * T times the largest flushed run seen. Component constraint: local, on level 0 only: writes wait
 * while level 0 holds {@code l0-stop} runs and a merge runs ({@link #componentConstraint()} reports
 * no global bound).
 */
public class PartitionedLevelingPolicy implements MergePolicy {
  private final long fileSize;
  private final long level1Size;
  private final int ratio;
  private final int l0Trigger;
  private final int l0Stop;
  private final boolean chooseBest;
  private final boolean exactlyL0Trigger;
  private final boolean trivialMove;
  private final Map<Integer, byte[]> cursors = new HashMap<>();
  /**
   * The file merge {@link #findMerges} returned last, its level and the largest key of the file it
   * picked; the cursor moves past that key only once the host starts the merge ({@link
   * #mergeStarted}).
   */
  private MergeRequest pickedFile;
  private int pickedLevel;
  private byte[] pickedMaxKey;
  private long flushSize;

  /** As the eight-argument constructor, without trivial moves. */
  public PartitionedLevelingPolicy(long fileSize, long level1Size, int ratio, int l0Trigger,
      int l0Stop, boolean chooseBest, boolean exactlyL0Trigger) {
    this(fileSize, level1Size, ratio, l0Trigger, l0Stop, chooseBest, exactlyL0Trigger, false);
  }

  /** See the class comment; {@code trivialMove} is the {@code trivial-move} parameter. */
  public PartitionedLevelingPolicy(long fileSize, long level1Size, int ratio, int l0Trigger,
      int l0Stop, boolean chooseBest, boolean exactlyL0Trigger, boolean trivialMove) {
    this.trivialMove = trivialMove;
    this.fileSize = fileSize;
    this.level1Size = level1Size;
    this.ratio = ratio;
    this.l0Trigger = l0Trigger;
    this.l0Stop = l0Stop;
    this.chooseBest = chooseBest;
    this.exactlyL0Trigger = exactlyL0Trigger;
  }

  /** The maximum bytes of level i >= 1. */
  double maxBytes(int level) {
    double base = level1Size > 0 ? level1Size : (double) ratio * Math.max(1, flushSize);
    return base * Math.pow(ratio, level - 1);
  }

  static List<RunInfo> levelZero(List<RunInfo> runs) {
    List<RunInfo> out = new ArrayList<>();
    for (RunInfo r : runs) {
      if (r.level() == 0) {
        out.add(r);
      }
    }
    return out;
  }

  static RunInfo level(List<RunInfo> runs, int level) {
    for (RunInfo r : runs) {
      if (r.level() == level) {
        return r;
      }
    }
    return null;
  }

  static boolean overlaps(ComponentInfo c, byte[] min, byte[] max) {
    return Arrays.compareUnsigned(c.maxKey(), min) >= 0
        && Arrays.compareUnsigned(c.minKey(), max) <= 0;
  }

  static List<ComponentInfo> overlapping(RunInfo run, byte[] min, byte[] max) {
    List<ComponentInfo> out = new ArrayList<>();
    if (run != null) {
      for (ComponentInfo c : run.components()) {
        if (overlaps(c, min, max)) {
          out.add(c);
        }
      }
    }
    return out;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    List<RunInfo> runs = index.runs();
    for (RunInfo r : runs) {
      if (r.level() == 0) {
        flushSize = Math.max(flushSize, r.sizeBytes());
      }
    }
    if (runs.isEmpty() || StackPolicies.anyMerging(runs)) {
      return List.of();
    }
    if (fullMergeRequested) {
      List<ComponentInfo> all = new ArrayList<>();
      int deepest = 1;
      for (RunInfo r : runs) {
        all.addAll(r.components());
        deepest = Math.max(deepest, r.level());
      }
      return List.of(MergeRequest.ofComponents(all, deepest, fileSize));
    }
    // Files move only with trivial-move and a host that can move them.
    boolean canMove = trivialMove
        && index.capabilities().contains(MergeContext.Capability.ROUTED_MERGES);
    MergeRequest r = pick(runs, deferLevelZero(index, runs), canMove);
    return r == null ? List.of() : List.of(r);
  }

  /** Advances the level's round-robin cursor past the file whose merge the host started. */
  @Override
  public void mergeStarted(MergeRequest request) {
    if (request == pickedFile) {
      cursors.put(pickedLevel, pickedMaxKey);
    }
    pickedFile = null;
  }

  /** Whether a due level-0 merge waits; never here, TRIAD-DISK overrides it. */
  boolean deferLevelZero(MergeContext index, List<RunInfo> runs) {
    return false;
  }

  /**
   * The merge of the level with the highest score of at least 1, or null; with {@code
   * skipLevelZero} level 0 is not considered (TRIAD-DISK's deferral); with {@code canMove} a file
   * with nothing under it moves instead ({@link #trivialMove}).
   */
  private MergeRequest pick(List<RunInfo> runs, boolean skipLevelZero, boolean canMove) {
    List<RunInfo> l0 = levelZero(runs);
    int deepest = 0;
    for (RunInfo r : runs) {
      deepest = Math.max(deepest, r.level());
    }
    int bestLevel = -1;
    double bestScore = 1.0 - 1e-12;
    if (!skipLevelZero && !l0.isEmpty()) {
      double s = (double) l0.size() / l0Trigger;
      if (s >= bestScore) {
        bestScore = s;
        bestLevel = 0;
      }
    }
    for (int i = 1; i <= deepest; i++) {
      RunInfo r = level(runs, i);
      if (r == null) {
        continue;
      }
      double s = r.sizeBytes() / maxBytes(i);
      if (s > bestScore) {
        bestScore = s;
        bestLevel = i;
      }
    }
    if (bestLevel < 0) {
      return null;
    }
    return bestLevel == 0 ? mergeLevelZero(runs, l0, canMove)
        : mergeFile(runs, bestLevel, canMove);
  }

  /** Whether level 0 has reached its trigger. */
  boolean levelZeroDue(List<RunInfo> runs) {
    return levelZero(runs).size() >= l0Trigger;
  }

  private MergeRequest mergeLevelZero(List<RunInfo> runs, List<RunInfo> l0, boolean canMove) {
    List<RunInfo> chosen = exactlyL0Trigger
        ? l0.subList(Math.max(0, l0.size() - l0Trigger), l0.size()) : l0; // the oldest
    List<ComponentInfo> inputs = new ArrayList<>();
    byte[] min = null;
    byte[] max = null;
    for (RunInfo r : chosen) {
      for (ComponentInfo c : r.components()) {
        inputs.add(c);
        min = min == null || Arrays.compareUnsigned(c.minKey(), min) < 0 ? c.minKey() : min;
        max = max == null || Arrays.compareUnsigned(c.maxKey(), max) > 0 ? c.maxKey() : max;
      }
    }
    inputs.addAll(overlapping(level(runs, 1), min, max));
    MergeRequest move = canMove ? trivialMove(runs, inputs, 0) : null;
    return move != null ? move : MergeRequest.ofComponents(inputs, 1, fileSize);
  }

  /**
   * With {@code trivial-move}: the move of {@code inputs}' one file from {@code level} to the next
   * when nothing there overlaps it (the inputs are that file alone) and the level after that
   * overlaps it by at most ten files' bytes; else null.
   */
  private MergeRequest trivialMove(List<RunInfo> runs, List<ComponentInfo> inputs, int level) {
    if (inputs.size() != 1) {
      return null;
    }
    ComponentInfo file = inputs.get(0);
    long below = 0;
    for (ComponentInfo c : overlapping(level(runs, level + 2), file.minKey(), file.maxKey())) {
      below += c.sizeBytes();
    }
    if (below > 10 * fileSize) {
      return null;
    }
    return MergeRequest.ofMove(List.of(file), List.of(level + 1));
  }

  private MergeRequest mergeFile(List<RunInfo> runs, int level, boolean canMove) {
    RunInfo here = level(runs, level);
    RunInfo next = level(runs, level + 1);
    List<ComponentInfo> files = here.components();
    ComponentInfo pick = null;
    if (chooseBest) {
      int fewest = Integer.MAX_VALUE;
      for (ComponentInfo c : files) {
        int n = overlapping(next, c.minKey(), c.maxKey()).size();
        if (n < fewest) {
          fewest = n;
          pick = c;
        }
      }
    } else {
      byte[] cursor = cursors.get(level);
      for (ComponentInfo c : files) {
        if (cursor == null || Arrays.compareUnsigned(c.minKey(), cursor) > 0) {
          pick = c;
          break;
        }
      }
      if (pick == null) {
        pick = files.get(0); // wrap around
      }
    }
    List<ComponentInfo> inputs = new ArrayList<>();
    inputs.add(pick);
    inputs.addAll(overlapping(next, pick.minKey(), pick.maxKey()));
    MergeRequest move = canMove ? trivialMove(runs, inputs, level) : null;
    pickedFile = move != null ? move : MergeRequest.ofComponents(inputs, level + 1, fileSize);
    pickedLevel = level;
    pickedMaxKey = pick.maxKey();
    return pickedFile;
  }

  /**
   * Leveling at the size ratio: one run per level of files; level-0 files (flushes) count as level
   * 1, whose rate is the lowest.
   */
  @Override
  public Optional<LevelShape> levelShape() {
    return Optional.of(new LevelShape(ratio, 1, 1));
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    List<RunInfo> runs = index.runs();
    return levelZero(runs).size() >= l0Stop && StackPolicies.anyMerging(runs);
  }
}
