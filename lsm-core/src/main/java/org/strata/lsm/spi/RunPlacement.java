package org.strata.lsm.spi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where the output of a completed merge goes in a list of runs: the placement rules behind {@link
 * RunList#apply}. Merging flags are {@link RunList}'s business; these functions only rearrange runs.
 */
final class RunPlacement {
  /** Stands for "no run id" where a change adds no run. */
  static final long NO_RUN = Long.MIN_VALUE;

  private RunPlacement() {}

  /**
   * Runs {@code start..end-1} replaced by run {@code newRunId} of {@code outputs} at {@code level},
   * or by nothing if {@code outputs} is empty; one run whose outputs are its own components (by
   * name) keeps its id and components and only takes {@code level}.
   */
  static List<RunInfo> wholeRuns(List<RunInfo> runs, int start, int end,
      List<ComponentInfo> outputs, int level, long newRunId) {
    List<RunInfo> next = new ArrayList<>(runs);
    RunInfo first = runs.get(start);
    if (end - start == 1 && sameNames(first.components(), outputs)) {
      next.set(start, new RunInfo(first.runId(), level, first.components(), first.merging()));
      return next;
    }
    next.subList(start, end).clear();
    if (!outputs.isEmpty()) {
      checkNew(next, newRunId, outputs);
      next.add(start, new RunInfo(newRunId, level, outputs, false));
    }
    return next;
  }

  /**
   * {@code inputs} taken out of their runs (runs left empty go), and {@code outputs} joined to the
   * run of {@code level} (above level 0) in key order, or formed into run {@code newRunId} of that
   * level, placed after every run of a lower level.
   *
   * @throws IllegalStateException if the outputs would overlap files of the run they join
   */
  static List<RunInfo> partitioned(List<RunInfo> runs, Set<String> inputs,
      List<ComponentInfo> outputs, int level, long newRunId) {
    List<RunInfo> next = new ArrayList<>();
    for (RunInfo r : runs) {
      List<ComponentInfo> left = new ArrayList<>();
      for (ComponentInfo c : r.components()) {
        if (!inputs.contains(c.name())) {
          left.add(c);
        }
      }
      if (left.size() == r.components().size()) {
        next.add(r);
      } else if (!left.isEmpty()) {
        next.add(new RunInfo(r.runId(), r.level(), left, r.merging()));
      }
    }
    if (outputs.isEmpty()) {
      return next;
    }
    int target = -1;
    for (int i = 0; i < next.size(); i++) {
      if (level > 0 && next.get(i).level() == level) {
        target = i;
        break;
      }
    }
    checkNew(next, target >= 0 ? NO_RUN : newRunId, outputs);
    if (target >= 0) {
      RunInfo joined = next.get(target);
      List<ComponentInfo> files = new ArrayList<>(joined.components());
      files.addAll(outputs);
      files.sort((a, b) -> Arrays.compareUnsigned(a.minKey(), b.minKey()));
      for (int i = 1; i < files.size(); i++) {
        if (Arrays.compareUnsigned(files.get(i - 1).maxKey(), files.get(i).minKey()) >= 0) {
          throw new IllegalStateException("a partitioned merge would overlap files of level "
              + level + " (" + files.get(i - 1).name() + " and " + files.get(i).name()
              + "); the policy must include every overlapping file");
        }
      }
      next.set(target, new RunInfo(joined.runId(), level, files, joined.merging()));
      return next;
    }
    int at = next.size();
    for (int i = 0; i < next.size(); i++) {
      if (next.get(i).level() > level) {
        at = i;
        break;
      }
    }
    next.add(at, new RunInfo(newRunId, level, outputs, false));
    return next;
  }

  /**
   * Refuses a new run id ({@link #NO_RUN}: none is added) or component name that is already in
   * {@code in}, the list the change adds them to.
   *
   * @throws IllegalArgumentException naming the id or component
   */
  static void checkNew(List<RunInfo> in, long runId, List<ComponentInfo> components) {
    Set<String> names = new HashSet<>();
    for (ComponentInfo c : components) {
      if (!names.add(c.name())) {
        throw new IllegalArgumentException("component " + c.name() + " is added twice");
      }
    }
    for (RunInfo r : in) {
      if (runId != NO_RUN && r.runId() == runId) {
        throw new IllegalArgumentException("run " + runId + " is already in the run list");
      }
      for (ComponentInfo c : r.components()) {
        if (names.contains(c.name())) {
          throw new IllegalArgumentException("component " + c.name()
              + " is already in the run list");
        }
      }
    }
  }

  private static boolean sameNames(List<ComponentInfo> a, List<ComponentInfo> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).name().equals(b.get(i).name())) {
        return false;
      }
    }
    return true;
  }
}
