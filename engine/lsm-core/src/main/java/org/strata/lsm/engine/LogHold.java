package org.strata.lsm.engine;

import org.strata.lsm.memory.MemoryComponent;

/**
 * The log's side of one tree's flushes, kept by whoever owns the log: a dataset partition's
 * {@link TreeGroup} for its trees (one shared log), {@link StoreLogHold} for a store's own log. The
 * {@link Flusher} calls it around every flush and knows nothing else of the log.
 */
interface LogHold {
  /**
   * Before the sealed memory component {@code mc} is written (or retired): the log must hold its
   * operations in closed segments, on disk unless durability is none ({@link
   * org.strata.lsm.wal.WriteAheadLog#holdThrough}), and whatever else recovery will need once
   * the manifest lists the flush must be on disk.
   */
  void holdThrough(MemoryComponent mc);

  /** A flush is durable: the log may drop what {@code manifest} lists as flushed. */
  void flushDurable(Manifest manifest);

  /** A flush failed (its error is recorded): writers waiting on the log's owner may look again. */
  void flushFailed();
}
