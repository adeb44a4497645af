package org.strata.lsm.spi;

import java.util.List;
import java.util.Optional;

/**
 * Decides when and what an index merges. A policy only chooses; a {@link MergeScheduler} runs what
 * it chose. One instance serves one index and is called from one thread at a time.
 *
 * <p>Implementations are created by a {@link MergePolicyFactory} found through {@link
 * java.util.ServiceLoader}.
 */
public interface MergePolicy {
  /**
   * Returns the merges to start now. Called after a flush or a merge has added a disk component,
   * and when a user asks for a full merge; again at once while the host reports that what it
   * applied changed the run list before it returned (a move, a simulator's instant merge), so the
   * policy sees the list its requests produced ({@link PolicyDriver}). The host checks each
   * request against the run list as it is then ({@link RunList#check}), with the inputs of the
   * requests before it in the list already merging, starts the ones it accepts and tells the
   * policy through {@link #mergeStarted}. A policy never schedules anything itself.
   *
   * <p>Build requests with {@link MergeRequest#ofRuns} (whole runs, contiguous, newest first),
   * {@link MergeRequest#ofComponents} (partitioned merges: contexts with {@link
   * MergeContext.Capability#PARTITIONED_RUNS}), {@link MergeRequest#ofRouted} and {@link
   * MergeRequest#ofMove} (contexts with {@link MergeContext.Capability#ROUTED_MERGES}).
   *
   * @param index the index's runs and what the host knows of them
   * @param fullMergeRequested true when a user asked to merge everything (a compaction request)
   * @return the requests in the order to start them; empty for none, never null
   */
  List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested);

  /**
   * The acceptance callback: the host started {@code request}, one {@link #findMerges} returned
   * (a move: did it). Called before the next call of {@link #findMerges}, in the order of the
   * requests; never for a request the host refused (the runs were gone, merging or not
   * contiguous). A policy with state that must follow only what actually runs (partitioned
   * leveling's round-robin cursor) updates it here. Does nothing by default.
   *
   * @param request the very object {@link #findMerges} returned
   */
  default void mergeStarted(MergeRequest request) {}

  /**
   * The component constraint: true while merges lag so far behind that writes must wait. The engine
   * asks after every flush and every merge and stalls writers (cause: constraint) while it holds.
   * A policy that answers true must have a merge scheduled or running, or writes would never
   * resume.
   */
  boolean isMergeLagging(MergeContext index);

  /**
   * The local component constraint (Luo & Carey 5.1): true while some level holds more runs than
   * the policy allows per level (2 for leveling, 2(T−1) for tiering) and a merge is pending. The
   * engine asks it instead of {@link #isMergeLagging} when {@code flow-control.constraint} is
   * {@code local}. Policies without levels answer as {@link #isMergeLagging} does.
   */
  default boolean isMergeLaggingLocally(MergeContext index) {
    return isMergeLagging(index);
  }

  /**
   * The keys at which the next flush cuts the memory component into several files (one level-0
   * run of files with disjoint key ranges), in ascending order; none by default (one file). The
   * engine asks just before it writes a flush. The LSA- and IAM-trees cut at the boundaries of
   * their level-1 nodes, so that each file can join its node by a metadata-only move, as the
   * paper's memory component is flushed straight into the nodes. Contexts that write no files
   * (the simulators, Hyracks) never ask.
   *
   * @param index the index as the flush finds it
   * @return strictly ascending keys, possibly none
   */
  default List<byte[]> flushCutKeys(MergeContext index) {
    return List.of();
  }

  /**
   * The policy's levels in Dostoevsky's terms (size ratio T, K runs per level, Z at the largest),
   * for a policy with levels; empty (the default) for one without. The engine sizes Bloom filters
   * by it when {@code bloom-filter.allocation} is {@code monkey}, and refuses {@code monkey} for a
   * policy that answers empty. Unlike the other methods it may be called from any thread, at any
   * time a component is written, so a policy whose shape changes must publish it safely.
   */
  default Optional<LevelShape> levelShape() {
    return Optional.empty();
  }

  /**
   * The total number of disk components a global component constraint should allow for this
   * policy: twice the count the policy is expected to keep (Luo & Carey, section 5.1.1), or
   * {@link Integer#MAX_VALUE} when the policy implies no bound. Schedulers' flow control uses it.
   */
  default int componentConstraint() {
    return Integer.MAX_VALUE;
  }
}
