package org.strata.lsm.spi;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A merge a policy asked for, as every {@link MergeContext} records it: which runs or files it
 * reads, the level of its output and the size of its output files. A {@link RunList} checks a
 * request ({@link RunList#check}), names the window it covers ({@link RunList#window}) and applies
 * it once the merge completed ({@link RunList#apply}).
 */
public sealed interface MergeRequest permits MergeRequest.Runs, MergeRequest.Components {
  /** The level of the output run. */
  int outputLevel();

  /** The largest output file in bytes; {@link Long#MAX_VALUE} for a single file. */
  long targetFileSize();

  /**
   * A merge of whole runs that are contiguous in the run list, given newest first (what {@link
   * MergeContext#scheduleMerge} asks for). Its output run takes their place.
   *
   * @param runIds the input runs' ids, newest first; not empty, no id twice
   * @param outputLevel level of the output run
   * @param targetFileSize largest output file in bytes, positive
   */
  record Runs(List<Long> runIds, int outputLevel, long targetFileSize) implements MergeRequest {
    /**
     * @throws IllegalArgumentException if {@code runIds} is empty or names a run twice, or {@code
     *     targetFileSize <= 0}
     */
    public Runs {
      runIds = checkInputs(runIds, "run", targetFileSize);
    }
  }

  /**
   * A partitioned merge of chosen files of one or more runs (what {@link
   * MergeContext#scheduleComponentMerge} asks for). The files leave their runs, and the output
   * files join the run of the output level in key order.
   *
   * @param componentNames the input components' names; not empty, no name twice
   * @param outputLevel level of the run the output joins or forms
   * @param targetFileSize largest output file in bytes, positive
   */
  record Components(List<String> componentNames, int outputLevel, long targetFileSize)
      implements MergeRequest {
    /**
     * @throws IllegalArgumentException if {@code componentNames} is empty or names a component
     *     twice, or {@code targetFileSize <= 0}
     */
    public Components {
      componentNames = checkInputs(componentNames, "component", targetFileSize);
    }
  }

  /** The request for a merge of whole runs, given as the policy sees them. */
  static Runs ofRuns(List<RunInfo> runs, int outputLevel, long targetFileSize) {
    List<Long> ids = new ArrayList<>(runs.size());
    for (RunInfo r : runs) {
      ids.add(r.runId());
    }
    return new Runs(ids, outputLevel, targetFileSize);
  }

  /** The request for a partitioned merge of components, given as the policy sees them. */
  static Components ofComponents(List<ComponentInfo> components, int outputLevel,
      long targetFileSize) {
    List<String> names = new ArrayList<>(components.size());
    for (ComponentInfo c : components) {
      names.add(c.name());
    }
    return new Components(names, outputLevel, targetFileSize);
  }

  /** An immutable copy of {@code inputs}, which must be non-empty and distinct. */
  private static <T> List<T> checkInputs(List<T> inputs, String what, long targetFileSize) {
    List<T> copy = List.copyOf(inputs);
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("a merge needs at least one " + what);
    }
    Set<T> seen = new HashSet<>();
    for (T t : copy) {
      if (!seen.add(t)) {
        throw new IllegalArgumentException(what + " " + t + " is named twice in a merge of "
            + copy);
      }
    }
    if (targetFileSize <= 0) {
      throw new IllegalArgumentException("targetFileSize must be positive, got " + targetFileSize);
    }
    return copy;
  }
}
