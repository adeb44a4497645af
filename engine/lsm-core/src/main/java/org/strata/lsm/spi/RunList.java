package org.strata.lsm.spi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The runs of one index, newest first, and which of their components are inputs of scheduled
 * merges: the one model of a run list that the engine, the merge-policy simulator, the
 * discrete-event simulator and the Hyracks adapter share. It is immutable; every change returns a
 * new list.
 *
 * <p>A context turns what a policy asks for into a {@link MergeRequest}, asks {@link #check}
 * whether it can be scheduled now, reads the {@link #window} it covers (its inputs, and whether
 * anti-matter may be dropped), marks its inputs {@linkplain #markMerging merging} while it runs and
 * {@linkplain #apply applies} it when it completes. What is its own (files, sizes, key-space
 * fractions, Hyracks components) a context keeps beside the list, by run id or component name.
 *
 * <p>Merging is tracked per component: a run shows {@link RunInfo#merging()} while any of its
 * components is an input of a merge, a whole-run merge marks every component of its runs, and a
 * partitioned merge only the files it reads.
 */
public final class RunList {
  /** A list without runs. */
  public static final RunList EMPTY = new RunList(List.of(), Set.of());

  private final List<RunInfo> runs;
  private final Set<String> merging;

  /** {@code merging} must hold only names of components in {@code base}. */
  private RunList(List<RunInfo> base, Set<String> merging) {
    List<RunInfo> out = new ArrayList<>(base.size());
    for (RunInfo r : base) {
      boolean m = false;
      for (ComponentInfo c : r.components()) {
        m |= merging.contains(c.name());
      }
      out.add(r.merging() == m ? r : new RunInfo(r.runId(), r.level(), r.components(), m));
    }
    this.runs = List.copyOf(out);
    this.merging = Set.copyOf(merging);
  }

  /**
   * A run list as a context sees it: every component of a run marked {@link RunInfo#merging()}
   * counts as merging.
   *
   * @param newestFirst the runs, newest first
   * @throws IllegalArgumentException if a run id or a component name appears twice
   */
  public static RunList of(List<RunInfo> newestFirst) {
    Set<Long> ids = new HashSet<>();
    Set<String> names = new HashSet<>();
    Set<String> merging = new HashSet<>();
    for (RunInfo r : newestFirst) {
      if (!ids.add(r.runId())) {
        throw new IllegalArgumentException("run " + r.runId() + " appears twice in a run list");
      }
      for (ComponentInfo c : r.components()) {
        if (!names.add(c.name())) {
          throw new IllegalArgumentException("component " + c.name()
              + " appears twice in a run list");
        }
        if (r.merging()) {
          merging.add(c.name());
        }
      }
    }
    return new RunList(newestFirst, merging);
  }

  /** The runs, newest first. */
  public List<RunInfo> runs() {
    return runs;
  }

  /** The run with this id. */
  public Optional<RunInfo> run(long runId) {
    int i = indexOfRun(runId);
    return i < 0 ? Optional.empty() : Optional.of(runs.get(i));
  }

  /** The run that holds the named component. */
  public Optional<RunInfo> runOf(String componentName) {
    for (RunInfo r : runs) {
      for (ComponentInfo c : r.components()) {
        if (c.name().equals(componentName)) {
          return Optional.of(r);
        }
      }
    }
    return Optional.empty();
  }

  /** The named component. */
  public Optional<ComponentInfo> component(String name) {
    return runOf(name).flatMap(r -> r.components().stream()
        .filter(c -> c.name().equals(name)).findFirst());
  }

  /** Whether the named component is an input of a scheduled or running merge. */
  public boolean isMerging(String componentName) {
    return merging.contains(componentName);
  }

  /**
   * The list with {@code run} added at the newest end (a flush). If {@code run.merging()}, its
   * components count as merging.
   *
   * @throws IllegalArgumentException if its id or a component name is already in the list
   */
  public RunList addNewest(RunInfo run) {
    RunPlacement.checkNew(runs, run.runId(), run.components());
    List<RunInfo> next = new ArrayList<>(runs.size() + 1);
    next.add(run);
    next.addAll(runs);
    Set<String> m = new HashSet<>(merging);
    if (run.merging()) {
      for (ComponentInfo c : run.components()) {
        m.add(c.name());
      }
    }
    return new RunList(next, m);
  }

  /**
   * Whether {@code request} can be scheduled now: empty if so, else why not. Whole runs must all
   * be in the list, adjacent and given newest first, and none merging; components must all be in
   * the list and none merging.
   */
  public Optional<MergeRejection> check(MergeRequest request) {
    if (request instanceof MergeRequest.Runs r) {
      MergeRejection where = locate(r);
      if (where != null) {
        return Optional.of(where);
      }
      int start = indexOfRun(r.runIds().get(0));
      for (int i = 0; i < r.runIds().size(); i++) {
        if (runs.get(start + i).merging()) {
          return Optional.of(new MergeRejection(MergeRejection.Reason.ALREADY_MERGING,
              "run " + runs.get(start + i).runId() + " is already merging"));
        }
      }
      return Optional.empty();
    }
    List<String> names = componentNames(request);
    MergeRejection unknown = unknownComponent(names);
    if (unknown != null) {
      return Optional.of(unknown);
    }
    for (String n : names) {
      if (merging.contains(n)) {
        return Optional.of(new MergeRejection(MergeRejection.Reason.COMPONENT_MERGING,
            "component " + n + " is already merging"));
      }
    }
    return Optional.empty();
  }

  /**
   * The runs {@code request} reads and whether it includes the oldest data of its key range. A
   * merge of whole runs includes it when its window ends at the oldest run; a partitioned merge
   * when no run is older than the oldest run it reads from (the policy includes every file of that
   * run that overlaps the merged key range).
   *
   * @throws IllegalArgumentException if a run or component is not in the list, or the runs are
   *     not contiguous
   */
  public MergeWindow window(MergeRequest request) {
    if (request instanceof MergeRequest.Runs r) {
      MergeRejection where = locate(r);
      if (where != null) {
        throw new IllegalArgumentException(where.message());
      }
      int start = indexOfRun(r.runIds().get(0));
      int end = start + r.runIds().size();
      return new MergeWindow(runs.subList(start, end), end == runs.size());
    }
    List<String> names = componentNames(request);
    MergeRejection unknown = unknownComponent(names);
    if (unknown != null) {
      throw new IllegalArgumentException(unknown.message());
    }
    Set<String> wanted = new HashSet<>(names);
    List<RunInfo> inputs = new ArrayList<>();
    int last = -1;
    for (int i = 0; i < runs.size(); i++) {
      RunInfo r = runs.get(i);
      List<ComponentInfo> picked = new ArrayList<>();
      for (ComponentInfo ci : r.components()) {
        if (wanted.contains(ci.name())) {
          picked.add(ci);
        }
      }
      if (!picked.isEmpty()) {
        inputs.add(picked.size() == r.components().size() ? r
            : new RunInfo(r.runId(), r.level(), picked, r.merging()));
        last = i;
      }
    }
    return new MergeWindow(inputs, last == runs.size() - 1);
  }

  /**
   * The list with the inputs of {@code request} marked merging.
   *
   * @throws IllegalStateException if {@link #check} refuses the request
   */
  public RunList markMerging(MergeRequest request) {
    Optional<MergeRejection> no = check(request);
    if (no.isPresent()) {
      throw new IllegalStateException("cannot mark a refused merge as merging: "
          + no.get().message());
    }
    Set<String> m = new HashSet<>(merging);
    m.addAll(inputNames(request));
    return new RunList(runs, m);
  }

  /**
   * The list with the inputs of {@code request} no longer merging: the merge was abandoned and its
   * inputs stay as they are. Inputs no longer in the list are passed over.
   */
  public RunList clearMerging(MergeRequest request) {
    Set<String> m = new HashSet<>(merging);
    if (request instanceof MergeRequest.Runs r) {
      for (long id : r.runIds()) {
        run(id).ifPresent(run -> run.components().forEach(c -> m.remove(c.name())));
      }
    } else {
      m.removeAll(componentNames(request));
    }
    return new RunList(runs, m);
  }

  /**
   * The list after {@code request} completed with {@code outputs}.
   *
   * <ul>
   *   <li>Whole runs: the output run {@code newRunId} at {@code outputLevel} takes the place of the
   *       window, or nothing does if {@code outputs} is empty (every entry was dropped). A request
   *       for one run whose outputs are that run's own components is a level move: the run keeps
   *       its id and components and takes {@code outputLevel}.
   *   <li>Components: the inputs leave their runs and runs left empty go; the outputs join the run
   *       of {@code outputLevel} (above level 0) in key order, or form that level's run {@code
   *       newRunId}, placed after every run of a lower level.
   * </ul>
   *
   * The inputs are no longer merging afterwards. {@code newRunId} is used only if a run is formed.
   *
   * @param outputs the output components in key order, possibly none
   * @throws IllegalStateException if the inputs are gone or no longer contiguous, a run of the
   *     window gained components while it was merging (they would be lost), or the outputs would
   *     overlap files of the run they join (the policy must include every overlapping file)
   * @throws IllegalArgumentException if an output name or {@code newRunId} is already in the list
   *     where it would be added
   */
  public RunList apply(MergeRequest request, List<ComponentInfo> outputs, long newRunId) {
    long[] next = {newRunId};
    boolean[] used = {false};
    return apply(request, outputs, () -> {
      if (used[0]) {
        throw new IllegalArgumentException("this change forms more than one run; use"
            + " apply(request, outputs, LongSupplier)");
      }
      used[0] = true;
      return next[0];
    });
  }

  /**
   * As {@link #apply(MergeRequest, List, long)}, for every kind of request: {@code newRunIds}
   * gives the id of each run the change forms (a {@link MergeRequest.Routed} merge or a {@link
   * MergeRequest.Move} may form one per level it writes to).
   *
   * <ul>
   *   <li>Routed: the inputs leave their runs (runs left empty go); each output joins the run of
   *       the level of the route that holds its smallest key, in key order, or forms it after
   *       every run of a lower level.
   *   <li>Move: {@code outputs} must be empty; each named component leaves its run and joins the
   *       run of its level in the same way. Nothing is rewritten.
   * </ul>
   *
   * @throws IllegalStateException as {@link #apply(MergeRequest, List, long)}, or if an output of
   *     a routed merge spans two routes
   */
  public RunList apply(MergeRequest request, List<ComponentInfo> outputs, LongSupplier newRunIds) {
    outputs = List.copyOf(outputs);
    if (request instanceof MergeRequest.Runs r) {
      return applyRuns(r, outputs, newRunIds.getAsLong());
    }
    if (request instanceof MergeRequest.Components c) {
      return applyComponents(c, outputs, newRunIds.getAsLong());
    }
    MergeRejection unknown = unknownComponent(componentNames(request));
    if (unknown != null) {
      throw new IllegalStateException("cannot apply a merge: " + unknown.message());
    }
    Set<String> inputs = new HashSet<>(componentNames(request));
    Set<String> m = new HashSet<>(merging);
    m.removeAll(inputs);
    if (request instanceof MergeRequest.Routed r) {
      return new RunList(RunPlacement.routed(runs, inputs, outputs, r, newRunIds), m);
    }
    if (!outputs.isEmpty()) {
      throw new IllegalArgumentException("a move has no outputs; it relocates its inputs");
    }
    return new RunList(RunPlacement.moved(runs, (MergeRequest.Move) request, newRunIds), m);
  }

  /** The input component names of a request that names components. */
  private static List<String> componentNames(MergeRequest request) {
    if (request instanceof MergeRequest.Components c) {
      return c.componentNames();
    }
    if (request instanceof MergeRequest.Routed r) {
      return r.componentNames();
    }
    if (request instanceof MergeRequest.Move mv) {
      return mv.componentNames();
    }
    throw new IllegalArgumentException("a merge of whole runs names no components");
  }

  private RunList applyRuns(MergeRequest.Runs r, List<ComponentInfo> outputs, long newRunId) {
    MergeRejection where = locate(r);
    if (where != null) {
      throw new IllegalStateException("cannot apply a merge: " + where.message());
    }
    int start = indexOfRun(r.runIds().get(0));
    int end = start + r.runIds().size();
    Set<String> inputs = new HashSet<>();
    for (RunInfo run : runs.subList(start, end)) {
      int marked = 0;
      for (ComponentInfo c : run.components()) {
        inputs.add(c.name());
        marked += merging.contains(c.name()) ? 1 : 0;
      }
      if (marked > 0 && marked < run.components().size()) {
        throw new IllegalStateException("cannot apply a merge: run " + run.runId()
            + " gained components while it was merging; they would be lost");
      }
    }
    Set<String> m = new HashSet<>(merging);
    m.removeAll(inputs);
    return new RunList(RunPlacement.wholeRuns(runs, start, end, outputs, r.outputLevel(),
        newRunId), m);
  }

  private RunList applyComponents(MergeRequest.Components request, List<ComponentInfo> outputs,
      long newRunId) {
    MergeRejection unknown = unknownComponent(request.componentNames());
    if (unknown != null) {
      throw new IllegalStateException("cannot apply a merge: " + unknown.message());
    }
    Set<String> inputs = new HashSet<>(request.componentNames());
    Set<String> m = new HashSet<>(merging);
    m.removeAll(inputs);
    return new RunList(RunPlacement.partitioned(runs, inputs, outputs, request.outputLevel(),
        newRunId), m);
  }

  /** Null if every run of {@code r} is in the list, adjacent and newest first. */
  private MergeRejection locate(MergeRequest.Runs r) {
    List<Long> ids = r.runIds();
    for (long id : ids) {
      if (indexOfRun(id) < 0) {
        return new MergeRejection(MergeRejection.Reason.UNKNOWN_RUN, "run " + id
            + " is not in the run list (merged meanwhile, or never there)");
      }
    }
    int start = indexOfRun(ids.get(0));
    for (int i = 1; i < ids.size(); i++) {
      int at = start + i;
      if (at >= runs.size() || runs.get(at).runId() != ids.get(i)) {
        return new MergeRejection(MergeRejection.Reason.NOT_CONTIGUOUS, "runs " + ids
            + " are not contiguous newest first: run " + ids.get(i - 1) + " is followed by "
            + (at >= runs.size() ? "no run" : "run " + runs.get(at).runId()));
      }
    }
    return null;
  }

  private MergeRejection unknownComponent(Collection<String> names) {
    Set<String> present = new HashSet<>();
    for (RunInfo r : runs) {
      for (ComponentInfo c : r.components()) {
        present.add(c.name());
      }
    }
    for (String n : names) {
      if (!present.contains(n)) {
        return new MergeRejection(MergeRejection.Reason.UNKNOWN_COMPONENT, "component " + n
            + " is not in the run list (merged meanwhile, or never there)");
      }
    }
    return null;
  }

  private Set<String> inputNames(MergeRequest request) {
    if (!(request instanceof MergeRequest.Runs r)) {
      return new HashSet<>(componentNames(request));
    }
    MergeRejection where = locate(r);
    if (where != null) {
      throw new IllegalStateException(where.message());
    }
    Set<String> names = new HashSet<>();
    int start = indexOfRun(r.runIds().get(0));
    for (RunInfo run : runs.subList(start, start + r.runIds().size())) {
      for (ComponentInfo c : run.components()) {
        names.add(c.name());
      }
    }
    return names;
  }

  private int indexOfRun(long runId) {
    for (int i = 0; i < runs.size(); i++) {
      if (runs.get(i).runId() == runId) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("RunList[");
    for (RunInfo r : runs) {
      s.append(r == runs.get(0) ? "" : ", ").append(r.runId()).append("@L").append(r.level())
          .append(r.merging() ? "*" : "").append(r.components().size() == 1 ? ""
              : "(" + r.components().size() + " files)");
    }
    return s.append(']').toString();
  }
}
