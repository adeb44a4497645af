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

  /** Total number of disk components over all runs. */
  default int diskComponentCount() {
    int n = 0;
    for (RunInfo r : runs()) {
      n += r.components().size();
    }
    return n;
  }
}
