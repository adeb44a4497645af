package org.strata.lsm.spi;

/**
 * Where a {@link MergeScheduler} runs the operations it starts. In a store it is a pool of threads
 * that call {@link IoOperation#run()}; in the discrete-event simulator it is virtual time, where a
 * started operation progresses at its share of the simulated bandwidth. Either way the scheduler
 * learns that an operation has finished through {@link MergeScheduler#completed}, and it controls a
 * started operation only through {@link IoOperation#pause()} and {@link IoOperation#resume()}, so
 * the same scheduler class runs unchanged on both.
 */
public interface OperationRunner extends AutoCloseable {
  /**
   * Starts {@code op} concurrently with the caller and returns at once. A started operation makes
   * progress whenever it is not paused; the runner never calls {@link MergeScheduler#completed}
   * itself (the store or the simulator does).
   */
  void start(IoOperation op);

  /**
   * True when time is simulated: every change a scheduler could react to (an arrival, a
   * completion) is delivered as a call, so schedulers must not start timers or threads of their
   * own.
   */
  default boolean virtualTime() {
    return false;
  }

  /** Waits until every started operation has returned (operations observe a closing store). */
  @Override
  void close();
}
