package org.strata.lsm.spi;

import java.util.List;

/**
 * The view of one index that a {@link MergePolicy} works on. The engine and the simulators both
 * implement it, so a policy cannot tell them apart.
 */
public interface MergeContext {
  /** The index's runs, newest first. The list is an immutable snapshot. */
  List<RunInfo> runs();

  /**
   * Asks for a merge of {@code runs}, which must be contiguous in {@link #runs()} (newest first) and
   * none of them merging. The output is one run at {@code outputLevel}, split into files of at most
   * {@code targetFileSize} bytes ({@link Long#MAX_VALUE} for a single file).
   *
   * @return true if the merge was scheduled; false if the runs are no longer contiguous, are already
   *     merging, or no longer exist
   * @throws IllegalArgumentException if {@code runs} is empty or {@code targetFileSize <= 0}
   */
  boolean scheduleMerge(List<RunInfo> runs, int outputLevel, long targetFileSize);

  /** Same as {@link #scheduleMerge(List, int, long)} with a single output file. */
  default boolean scheduleMerge(List<RunInfo> runs, int outputLevel) {
    return scheduleMerge(runs, outputLevel, Long.MAX_VALUE);
  }

  /**
   * Asks for a partitioned merge (LevelDB style): {@code components} are disk components of one or
   * more runs, none merging, for example one file of level i and every file of level i+1 that
   * overlaps its key range, or whole level-0 runs and the level-1 files they overlap. The output is
   * split into files of at most {@code targetFileSize} bytes that join the run of {@code
   * outputLevel} in key order (or form it, after every run of a lower level); runs left empty
   * disappear. The caller must include every file of the output level that overlaps the inputs.
   *
   * @return true if the merge was scheduled; false if a component is gone or already merging
   * @throws UnsupportedOperationException where partitioned runs are not modelled (the
   *     merge-policy simulator models runs without keys)
   */
  default boolean scheduleComponentMerge(List<ComponentInfo> components, int outputLevel,
      long targetFileSize) {
    throw new UnsupportedOperationException("this index does not support partitioned merges");
  }

  /**
   * The HyperLogLog sketch of a component's keys (TRIAD-DISK), when the index keeps one; the
   * engine writes one into every component, the simulator has none.
   */
  default java.util.Optional<KeySketch> keySketch(ComponentInfo component) {
    return java.util.Optional.empty();
  }

  /** Whether one disk component is an input of a scheduled or running merge. */
  default boolean isMerging(ComponentInfo component) {
    for (RunInfo r : runs()) {
      for (ComponentInfo c : r.components()) {
        if (c.name().equals(component.name())) {
          return r.merging();
        }
      }
    }
    return false;
  }

  /** Total number of disk components over all runs. */
  default int diskComponentCount() {
    int n = 0;
    for (RunInfo r : runs()) {
      n += r.components().size();
    }
    return n;
  }
}
