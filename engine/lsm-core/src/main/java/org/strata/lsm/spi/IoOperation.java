package org.strata.lsm.spi;

/**
 * A flush or merge: an I/O operation that reads inputs and writes one new run through the store's
 * shared I/O throttle. A scheduler decides when {@link #run()} is called and may pause it.
 */
public interface IoOperation {
  /** The kind of an I/O operation. */
  enum Kind {
    FLUSH,
    MERGE
  }

  Kind kind();

  /** Name of the index the operation belongs to. */
  String indexName();

  /** Input pages in total. */
  long totalInputPages();

  /** Input pages not yet consumed; what the greedy scheduler orders by. */
  long remainingInputPages();

  /**
   * Executes the operation to completion on the calling thread. A scheduler calls it exactly once.
   * It returns early, leaving no output behind, if the store is closing. Failures are handled and
   * logged by the engine; this method does not throw for I/O errors.
   */
  void run();

  /** Asks the operation to stop at the next page boundary until {@link #resume()} is called. */
  void pause();

  /** Lets a paused operation continue. */
  void resume();
}
