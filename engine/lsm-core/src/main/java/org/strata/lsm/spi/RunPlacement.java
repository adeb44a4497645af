package org.strata.lsm.spi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Where the output of a completed merge goes in a list of runs: the placement rules behind {@link
 * RunList#apply}. Merging flags are {@link RunList}'s business; these functions only rearrange
 * runs.
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
    List<RunInfo> next = without(runs, inputs);
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
   * {@code inputs} taken out of their runs (runs left empty go), and each output joined to the run
   * of its route's level (see {@link #joinLevel}).
   *
   * @throws IllegalStateException if an output spans two routes or would overlap files of the
   *     run it joins
   */
  static List<RunInfo> routed(List<RunInfo> runs, Set<String> inputs,
      List<ComponentInfo> outputs, MergeRequest.Routed request, LongSupplier newRunIds) {
    List<RunInfo> next = without(runs, inputs);
    checkNew(next, NO_RUN, outputs);
    Map<Integer, List<ComponentInfo>> byLevel = new LinkedHashMap<>();
    for (ComponentInfo c : outputs) {
      int route = request.routeOf(c.minKey());
      if (request.routeOf(c.maxKey()) != route) {
        throw new IllegalStateException("output " + c.name() + " of a routed merge spans routes "
            + route + " and " + request.routeOf(c.maxKey()));
      }
      byLevel.computeIfAbsent(request.routes().get(route).outputLevel(), l -> new ArrayList<>())
          .add(c);
    }
    for (Map.Entry<Integer, List<ComponentInfo>> e : byLevel.entrySet()) {
      next = joinLevel(next, e.getValue(), e.getKey(), newRunIds);
    }
    return next;
  }

  /** Each component of {@code move} taken out of its run and joined to the run of its level. */
  static List<RunInfo> moved(List<RunInfo> runs, MergeRequest.Move move,
      LongSupplier newRunIds) {
    Map<String, ComponentInfo> byName = new HashMap<>();
    for (RunInfo r : runs) {
      for (ComponentInfo c : r.components()) {
        byName.put(c.name(), c);
      }
    }
    List<RunInfo> next = without(runs, new HashSet<>(move.componentNames()));
    Map<Integer, List<ComponentInfo>> byLevel = new LinkedHashMap<>();
    for (int i = 0; i < move.componentNames().size(); i++) {
      byLevel.computeIfAbsent(move.toLevels().get(i), l -> new ArrayList<>())
          .add(byName.get(move.componentNames().get(i)));
    }
    for (Map.Entry<Integer, List<ComponentInfo>> e : byLevel.entrySet()) {
      List<ComponentInfo> files = new ArrayList<>(e.getValue());
      files.sort((a, b) -> Arrays.compareUnsigned(a.minKey(), b.minKey()));
      next = joinLevel(next, files, e.getKey(), newRunIds);
    }
    return next;
  }

  /** {@code runs} without the named components; runs left empty go. */
  private static List<RunInfo> without(List<RunInfo> runs, Set<String> inputs) {
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
    return next;
  }

  /**
   * {@code files} (key order) joined to the first run of {@code level} in key order, or formed
   * into a new run placed after every run of a level up to {@code level}.
   *
   * @throws IllegalStateException if they would overlap files of the run they join
   */
  private static List<RunInfo> joinLevel(List<RunInfo> in, List<ComponentInfo> files, int level,
      LongSupplier newRunIds) {
    List<RunInfo> next = new ArrayList<>(in);
    for (int i = 0; i < next.size(); i++) {
      RunInfo joined = next.get(i);
      if (joined.level() != level) {
        continue;
      }
      List<ComponentInfo> all = new ArrayList<>(joined.components());
      all.addAll(files);
      all.sort((a, b) -> Arrays.compareUnsigned(a.minKey(), b.minKey()));
      for (int j = 1; j < all.size(); j++) {
        if (Arrays.compareUnsigned(all.get(j - 1).maxKey(), all.get(j).minKey()) >= 0) {
          throw new IllegalStateException("files " + all.get(j - 1).name() + " and "
              + all.get(j).name() + " would overlap in the run of level " + level);
        }
      }
      next.set(i, new RunInfo(joined.runId(), level, all, joined.merging()));
      return next;
    }
    for (int j = 1; j < files.size(); j++) {
      if (Arrays.compareUnsigned(files.get(j - 1).maxKey(), files.get(j).minKey()) >= 0) {
        throw new IllegalStateException("files " + files.get(j - 1).name() + " and "
            + files.get(j).name() + " would overlap in the new run of level " + level);
      }
    }
    long id = newRunIds.getAsLong();
    checkNew(next, id, List.of());
    int at = next.size();
    for (int i = 0; i < next.size(); i++) {
      if (next.get(i).level() > level) {
        at = i;
        break;
      }
    }
    next.add(at, new RunInfo(id, level, files, false));
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
