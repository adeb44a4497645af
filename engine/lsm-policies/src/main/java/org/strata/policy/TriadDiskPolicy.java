package org.strata.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.RunInfo;

/**
 * TRIAD-DISK (Balmau et al.; docs/papers/triad.md#triad-disk) on top of {@link
 * PartitionedLevelingPolicy}: when level 0 is due for a merge, the overlap ratio of its files, 1 −
 * distinct keys / total keys, is estimated from the HyperLogLog sketches the engine writes into the
 * components of a store whose policy declares key sketches, as this factory does besides
 * partitioned runs and key ranges ({@link MergeContext#distinctKeys}); while it is below {@code
 * overlap-ratio} and level 0 holds at most {@code max-l0-files} files, the level-0 merge is
 * deferred. Deferral never blocks merges of levels 1 and below (ours: the public TRIAD code's
 * picker can block them). The ratio is computed over level-0 files only (the paper's pseudo-code
 * and the public code). Without an estimate (a file without a sketch) nothing is deferred.
 */
public final class TriadDiskPolicy extends PartitionedLevelingPolicy {
  private final double overlapThreshold;
  private final int maxL0Files;

  public TriadDiskPolicy(long fileSize, long level1Size, int ratio, int l0Trigger, int l0Stop,
      boolean chooseBest, boolean exactlyL0Trigger, boolean trivialMove, double overlapThreshold,
      int maxL0Files) {
    super(fileSize, level1Size, ratio, l0Trigger, l0Stop, chooseBest, exactlyL0Trigger,
        trivialMove);
    this.overlapThreshold = overlapThreshold;
    this.maxL0Files = maxL0Files;
  }

  /**
   * 1 − (estimated distinct keys of the union) / (keys added to all files), or empty when the index
   * has no estimate (no sketches) or the files hold no keys. The keys added to a file are its
   * entries, anti-matter included: every entry's key went into its sketch.
   */
  static Optional<Double> overlapRatio(MergeContext index, List<RunInfo> levelZero) {
    List<ComponentInfo> files = new ArrayList<>();
    long total = 0;
    for (RunInfo r : levelZero) {
      for (ComponentInfo c : r.components()) {
        files.add(c);
        total += c.entryCount();
      }
    }
    if (total == 0) {
      return Optional.empty();
    }
    OptionalDouble estimate = index.distinctKeys(files);
    if (estimate.isEmpty()) {
      return Optional.empty();
    }
    double distinct = Math.min(total, estimate.getAsDouble());
    return Optional.of(1 - distinct / total);
  }

  @Override
  boolean deferLevelZero(MergeContext index, List<RunInfo> runs) {
    List<RunInfo> l0 = levelZero(runs);
    int files = 0;
    for (RunInfo r : l0) {
      files += r.components().size();
    }
    if (!levelZeroDue(runs) || files > maxL0Files) {
      return false;
    }
    Optional<Double> ratio = overlapRatio(index, l0);
    return ratio.isPresent() && ratio.get() < overlapThreshold;
  }
}
