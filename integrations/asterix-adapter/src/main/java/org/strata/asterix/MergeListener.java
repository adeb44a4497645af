package org.strata.asterix;

/**
 * Observes what a {@link StrataIoScheduler} does with Hyracks merges: when each is scheduled,
 * allowed to run, paused and completed. Calls come from the scheduler's and the merges' threads,
 * synchronously, while the scheduler's state is consistent; listeners must be quick and must not
 * call back into the scheduler. Useful for tracing and for tests of a scheduler's rules.
 */
public interface MergeListener {
  /** A merge was handed to the Strata scheduler (it may start paused). */
  default void scheduled(MergeView merge) {}

  /**
   * A merge's thread started it (a merge the scheduler paused first waits at Hyracks' first pause
   * check until it is resumed).
   *
   * @param others the other merges of the same scheduling scope that are scheduled and not
   *     completed, at this moment
   */
  default void started(MergeView merge, java.util.List<MergeView> others) {}

  /**
   * The Strata scheduler let {@code merge} run (resumed it or left it running from the start).
   *
   * @param others the other merges of the same scheduling scope that are scheduled and not
   *     completed, at this moment
   */
  default void resumed(MergeView merge, java.util.List<MergeView> others) {}

  /** The Strata scheduler paused {@code merge}; it stops at Hyracks' next pause check. */
  default void paused(MergeView merge) {}

  /** The merge returned, successfully or not. */
  default void completed(MergeView merge, boolean success) {}

  /**
   * One merge as a listener sees it.
   *
   * @param id a number unique within the scheduler
   * @param indexIdentifier the Hyracks index identifier
   * @param remainingPages input pages not yet read, as Hyracks counts them
   * @param running started, not paused by the scheduler and not returned
   */
  record MergeView(long id, String indexIdentifier, long remainingPages, boolean running) {}
}
