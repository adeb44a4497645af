package org.strata.lsm.spi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A merge a policy asks for by returning it from {@link MergePolicy#findMerges}: which runs or
 * files it reads, the level of its output and the size of its output files. A {@link RunList}
 * checks a request ({@link RunList#check}), names the window it covers ({@link RunList#window}) and
 * applies it once the merge completed ({@link RunList#apply}).
 */
public sealed interface MergeRequest
    permits MergeRequest.Runs, MergeRequest.Components, MergeRequest.Routed, MergeRequest.Move {
  /** The level of the output run (for {@link Routed} and {@link Move}: the deepest level). */
  int outputLevel();

  /** The largest output file in bytes; {@link Long#MAX_VALUE} for a single file. */
  long targetFileSize();

  /**
   * A merge of whole runs that are contiguous in the run list, given newest first ({@link
   * #ofRuns}), none of them merging. Its output is one run at {@code outputLevel}, split into
   * files of at most {@code targetFileSize} bytes, in the place of the inputs.
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
   * A partitioned merge (LevelDB style) of chosen files of one or more runs ({@link
   * #ofComponents}), none merging: for example one file of level i and every file of level i+1
   * that overlaps its key range, or whole level-0 runs and the level-1 files they overlap. The
   * files leave their runs, and the output files join the run of the output level in key order
   * (or form it, after every run of a lower level); runs left empty disappear. The request must
   * include every file of the output level that overlaps the inputs. Only for contexts with
   * {@link MergeContext.Capability#PARTITIONED_RUNS}.
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

  /**
   * Where the part of a routed merge's output from {@code fromKey} up to the next route's {@code
   * fromKey} goes: the files join the run of {@code outputLevel} in key order, or form it.
   *
   * @param fromKey the smallest key of the route (unsigned byte order); empty for the first route
   * @param outputLevel level of the run the route's files join or form
   * @param targetFileSize largest output file of the route in bytes, positive
   * @param dropAntimatter whether the route's part holds the oldest data of its key range, so its
   *     anti-matter may go; the context drops it only if the merge also {@linkplain
   *     MergeWindow#includesOldest includes the oldest run}
   */
  record Route(byte[] fromKey, int outputLevel, long targetFileSize, boolean dropAntimatter) {
    /** @throws IllegalArgumentException if {@code targetFileSize <= 0} */
    public Route {
      fromKey = fromKey.clone();
      if (targetFileSize <= 0) {
        throw new IllegalArgumentException("targetFileSize must be positive, got "
            + targetFileSize);
      }
    }

    @Override
    public byte[] fromKey() {
      return fromKey.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Route r && Arrays.equals(fromKey, r.fromKey)
          && outputLevel == r.outputLevel && targetFileSize == r.targetFileSize
          && dropAntimatter == r.dropAntimatter;
    }

    @Override
    public int hashCode() {
      return 31 * (31 * (31 * Arrays.hashCode(fromKey) + outputLevel)
          + Long.hashCode(targetFileSize)) + Boolean.hashCode(dropAntimatter);
    }
  }

  /**
   * A merge of chosen files whose output is cut at key boundaries and sent to several runs ({@link
   * #ofRouted}; the node flush of an LSA- or IAM-tree, only for contexts with {@link
   * MergeContext.Capability#ROUTED_MERGES}): the
   * k-way merge of the inputs is split by {@code routes}, and each route's files join (or form)
   * the run of its own level. The inputs leave their runs. Files of runs that are not inputs keep
   * their place, so a route into a run that holds other files of the same key range appends a
   * newer sequence in front of them only if its run is newer (earlier in the run list).
   *
   * @param componentNames the input components' names; not empty, no name twice
   * @param routes the routes in ascending key order; the first has an empty {@code fromKey}, the
   *     others strictly ascending ones
   */
  record Routed(List<String> componentNames, List<Route> routes) implements MergeRequest {
    /**
     * @throws IllegalArgumentException if {@code componentNames} is empty or names a component
     *     twice, or the routes are empty, do not start with an empty key or are not ascending
     */
    public Routed {
      componentNames = checkInputs(componentNames, "component", 1);
      routes = List.copyOf(routes);
      if (routes.isEmpty() || routes.get(0).fromKey.length != 0) {
        throw new IllegalArgumentException("a routed merge needs routes, the first from the empty"
            + " key");
      }
      for (int i = 1; i < routes.size(); i++) {
        if (Arrays.compareUnsigned(routes.get(i - 1).fromKey, routes.get(i).fromKey) >= 0) {
          throw new IllegalArgumentException("the routes of a routed merge must have strictly"
              + " ascending keys; route " + i + " does not");
        }
      }
    }

    /** The deepest level a route writes to. */
    @Override
    public int outputLevel() {
      int m = Integer.MIN_VALUE;
      for (Route r : routes) {
        m = Math.max(m, r.outputLevel());
      }
      return m;
    }

    /** The largest target file size of the routes. */
    @Override
    public long targetFileSize() {
      long m = 0;
      for (Route r : routes) {
        m = Math.max(m, r.targetFileSize());
      }
      return m;
    }

    /** The index of the route that holds {@code key}. */
    public int routeOf(byte[] key) {
      int at = 0;
      for (int i = 1; i < routes.size(); i++) {
        if (Arrays.compareUnsigned(routes.get(i).fromKey, key) <= 0) {
          at = i;
        } else {
          break;
        }
      }
      return at;
    }
  }

  /**
   * A metadata-only move ({@link #ofMove}): each named file leaves its run and joins (or forms)
   * the run of its level in key order; no byte is read or written. Done at once and durable when
   * the host accepts it (the engine writes its manifest), so the host asks the policy again
   * ({@link PolicyDriver}); refused if a file is gone or merging or would overlap a file of the
   * run it joins. Only for contexts with {@link MergeContext.Capability#ROUTED_MERGES}.
   *
   * @param componentNames the components to move; not empty, no name twice
   * @param toLevels the level each component goes to, in the same order
   */
  record Move(List<String> componentNames, List<Integer> toLevels) implements MergeRequest {
    /**
     * @throws IllegalArgumentException if {@code componentNames} is empty or names a component
     *     twice, or the two lists differ in length
     */
    public Move {
      componentNames = checkInputs(componentNames, "component", 1);
      toLevels = List.copyOf(toLevels);
      if (toLevels.size() != componentNames.size()) {
        throw new IllegalArgumentException("a move needs one level per component: "
            + componentNames.size() + " components, " + toLevels.size() + " levels");
      }
    }

    /** The deepest level a component moves to. */
    @Override
    public int outputLevel() {
      int m = Integer.MIN_VALUE;
      for (int l : toLevels) {
        m = Math.max(m, l);
      }
      return m;
    }

    /** A move writes nothing; {@link Long#MAX_VALUE}. */
    @Override
    public long targetFileSize() {
      return Long.MAX_VALUE;
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

  /** {@link #ofRuns(List, int, long)} with a single output file. */
  static Runs ofRuns(List<RunInfo> runs, int outputLevel) {
    return ofRuns(runs, outputLevel, Long.MAX_VALUE);
  }

  /** The request for a partitioned merge of components, given as the policy sees them. */
  static Components ofComponents(List<ComponentInfo> components, int outputLevel,
      long targetFileSize) {
    return new Components(names(components), outputLevel, targetFileSize);
  }

  /** The request for a routed merge of components, given as the policy sees them. */
  static Routed ofRouted(List<ComponentInfo> components, List<Route> routes) {
    return new Routed(names(components), routes);
  }

  /** The request for a move of components to {@code toLevels} (same order). */
  static Move ofMove(List<ComponentInfo> components, List<Integer> toLevels) {
    return new Move(names(components), toLevels);
  }

  private static List<String> names(List<ComponentInfo> components) {
    List<String> names = new ArrayList<>(components.size());
    for (ComponentInfo c : components) {
      names.add(c.name());
    }
    return names;
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
