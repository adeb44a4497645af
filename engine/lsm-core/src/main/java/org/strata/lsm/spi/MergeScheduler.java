package org.strata.lsm.spi;

/**
 * Runs the merges that policies schedule: it decides when each {@link IoOperation} runs and may
 * pause and resume running ones. One instance serves one store.
 */
public interface MergeScheduler extends AutoCloseable {
  /** Hands over an operation; the scheduler must eventually call {@link IoOperation#run()} once. */
  void schedule(IoOperation op);

  /**
   * Called by the engine right after {@code op.run()} returned, on the thread that ran it (by the
   * simulator when a virtual operation finishes). Schedulers may rely on it to start the next
   * operation; it is called for every operation that ran, successful or not.
   */
  void completed(IoOperation op);

  /**
   * Stops the scheduler: operations not started are dropped (the engine re-plans after reopen),
   * running ones are allowed to observe the closing store and return; waits for them.
   */
  @Override
  void close();
}
