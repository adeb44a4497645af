package org.strata.scheduler;

import java.util.ArrayDeque;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.OperationRunner;

/**
 * Luo & Carey's single-threaded scheduler: one merge at a time, in the order they were scheduled
 * (FIFO by creation, our reading of the paper: docs/papers/luo-carey.md#schedulers). The next merge
 * starts when the running one is reported {@linkplain #completed completed}. Flushes run on the
 * engine's own flush thread and are not queued here, so they keep priority.
 */
public final class SingleThreadScheduler implements MergeScheduler {
  private static final Logger LOG = LogManager.getLogger(SingleThreadScheduler.class);

  private final OperationRunner runner;
  private final ArrayDeque<IoOperation> queue = new ArrayDeque<>();
  private IoOperation running;
  private boolean closed;

  /** A single-threaded scheduler on a thread of its own. */
  public SingleThreadScheduler() {
    this(new ThreadOperationRunner("single"));
  }

  /** A single-threaded scheduler that starts its merges on {@code runner} (and owns it). */
  public SingleThreadScheduler(OperationRunner runner) {
    this.runner = runner;
  }

  @Override
  public void schedule(IoOperation op) {
    IoOperation start;
    synchronized (this) {
      if (closed) {
        return;
      }
      queue.addLast(op);
      start = next();
    }
    if (start != null) {
      runner.start(start);
    }
  }

  @Override
  public void completed(IoOperation op) {
    IoOperation start;
    synchronized (this) {
      if (running == op) {
        running = null;
      }
      start = closed ? null : next();
    }
    if (start != null) {
      runner.start(start);
    }
  }

  /** The queue's head if nothing runs; it becomes the running merge. */
  private IoOperation next() {
    if (running != null || queue.isEmpty()) {
      return null;
    }
    running = queue.pollFirst();
    return running;
  }

  /** Merges waiting for their turn (for tests and statistics). */
  public synchronized int queued() {
    return queue.size();
  }

  @Override
  public void close() {
    // Drop queued merges but do not interrupt the running one: it notices the closing store at
    // its next page and stops cleanly (an interrupt would close its file channels mid-write).
    synchronized (this) {
      closed = true;
      if (!queue.isEmpty()) {
        LOG.debug("dropped {} queued merges at close", queue.size());
      }
      queue.clear();
    }
    runner.close();
  }
}
