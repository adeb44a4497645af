package org.strata.lsm.spi;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The view of one index that a {@link MergePolicy} works on: what it reads to decide, never a way
 * to act (a policy returns its merges from {@link MergePolicy#findMerges}). The engine, the
 * merge-policy simulator, the discrete-event simulator and the Hyracks adapter all implement it
 * over a {@link RunList}, so a policy cannot tell them apart beyond the {@linkplain #capabilities()
 * capabilities} a context offers. A policy's factory declares the capabilities the policy needs
 * ({@link MergePolicyFactory#requiredCapabilities()}), and a context refuses, when it is created, a
 * policy that needs one it lacks ({@link PolicyHost#check}).
 */
public interface MergeContext {
  /** What a context may offer beyond whole runs of one component each. */
  enum Capability {
    /**
     * Runs of many files with disjoint key ranges, and partitioned merges of chosen files ({@link
     * MergeRequest.Components}): the engine has them; the simulators and Hyracks components do
     * not.
     */
    PARTITIONED_RUNS("partitioned runs"),
    /** {@link ComponentInfo#minKey()} and {@link ComponentInfo#maxKey()} hold the real keys. */
    KEY_RANGES("key ranges"),
    /** {@link #distinctKeys} answers from HyperLogLog sketches of the components' keys. */
    KEY_SKETCHES("key sketches"),
    /**
     * Merges whose output goes to several runs ({@link MergeRequest.Routed}) and metadata-only
     * moves of files between runs ({@link MergeRequest.Move}): the engine only.
     */
    ROUTED_MERGES("routed merges");

    private final String description;

    Capability(String description) {
      this.description = description;
    }

    /** How messages name the capability, e.g. {@code partitioned runs}. */
    public String description() {
      return description;
    }
  }

  /** The index's runs, newest first. The list is an immutable snapshot. */
  List<RunInfo> runs();

  /** The capabilities this context offers; none by default. */
  default Set<Capability> capabilities() {
    return Set.of();
  }

  /**
   * The estimated number of distinct keys in the union of {@code components} (TRIAD-DISK's
   * UniqueKeys), from the HyperLogLog sketches the engine writes into the components of a store
   * whose policy declares {@link Capability#KEY_SKETCHES} (relative error about 1.6%). The keys
   * added to each component, counted with repetitions, are its {@link ComponentInfo#entryCount()}.
   * A policy sees estimates only, never the sketches themselves.
   *
   * @return the estimate; empty where the context keeps no sketches (it does not offer {@link
   *     Capability#KEY_SKETCHES}) or a component has none or is no longer in the index
   */
  default OptionalDouble distinctKeys(List<ComponentInfo> components) {
    return OptionalDouble.empty();
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

  /**
   * The largest flush the index has ever written, in bytes as {@link #runs()} sizes a flushed run,
   * over its whole life: also before the index was last closed or crashed, and also flushes since
   * merged away. Policies that size levels by the flush size (the M of
   * docs/papers/dostoevsky.md#fluid-merge-rules: {@code tiering}, {@code leveling}, {@code
   * lazy-leveling}, {@code fluid}) start from it, so their decisions after a restart equal those of
   * a run that never stopped. The engine keeps it in its manifest, the Hyracks adapter in its level
   * file; a context that never restarts (the simulators) may answer 0, which means "not kept": the
   * policy then relies on the flushed runs it sees.
   *
   * @return the bytes of the largest flush, or 0 if the context does not keep it
   */
  default long largestFlushBytes() {
    return 0;
  }

  /**
   * The updates and point lookups the index has served since it was opened, for a policy that
   * adapts to its workload (the engine's {@code adaptive-fluid}). Contexts that serve no
   * operations (the simulators, Hyracks) report {@link OperationCounts#NONE}, and such a policy
   * then keeps its configured design.
   */
  default OperationCounts operationCounts() {
    return OperationCounts.NONE;
  }

  /**
   * The state the policy last saved with {@link #savePolicyState}, as it was when the index was
   * last closed or crashed; empty for a new index, one whose policy never saved anything, or a
   * context that keeps none.
   */
  default Map<String, Long> policyState() {
    return Map.of();
  }

  /**
   * Saves state the policy needs after a restart, replacing what it saved before: the engine
   * writes it into its manifest and returns once that is durable, so a crash after the call never
   * loses it; a context that keeps no state returns false. Keys are at most 64 characters of
   * letters, digits, '.', '-' and '_'.
   *
   * @return true if the state is durable, false if the context keeps none or the write failed
   *     (the engine logs why; the state it held before stays)
   * @throws IllegalArgumentException for a key that is empty, too long or has other characters
   */
  default boolean savePolicyState(Map<String, Long> state) {
    checkPolicyStateKeys(state);
    return false;
  }

  /** Refuses keys that {@link #savePolicyState} does not allow. */
  static void checkPolicyStateKeys(Map<String, Long> state) {
    for (String k : state.keySet()) {
      if (k.isEmpty() || k.length() > 64 || !k.matches("[A-Za-z0-9._-]+")) {
        throw new IllegalArgumentException("a policy state key is 1 to 64 letters, digits, '.',"
            + " '-' or '_', got '" + k + "'");
      }
    }
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
