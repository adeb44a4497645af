package org.strata.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeScheduler;

/**
 * Luo & Carey's single-threaded scheduler: one merge at a time, in the order they were scheduled
 * (FIFO by creation, the spec's recommended reading). Flushes run on the engine's own flush thread
 * and are not queued here, so they keep priority.
 */
public final class SingleThreadScheduler implements MergeScheduler {
  private static final Logger LOG = LogManager.getLogger(SingleThreadScheduler.class);

  private final ThreadPoolExecutor executor;

  public SingleThreadScheduler() {
    this.executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "strata-merge");
          t.setDaemon(true);
          return t;
        });
  }

  @Override
  public void schedule(IoOperation op) {
    executor.execute(new Task(op));
  }

  @Override
  public void completed(IoOperation op) {
    // FIFO needs no bookkeeping: the next queued merge starts when this task returns.
  }

  @Override
  public void close() {
    // Drop queued merges but do not interrupt the running one: it notices the closing store at
    // its next page and stops cleanly (an interrupt would close its file channels mid-write).
    List<Runnable> dropped = new ArrayList<>();
    executor.getQueue().drainTo(dropped);
    executor.shutdown();
    if (!dropped.isEmpty()) {
      LOG.debug("dropped {} queued merges at close", dropped.size());
    }
    try {
      if (!executor.awaitTermination(5, TimeUnit.MINUTES)) {
        LOG.warn("a merge did not stop within 5 minutes of close");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Wraps an operation so that shutdownNow returns it. */
  private record Task(IoOperation op) implements Runnable {
    @Override
    public void run() {
      op.run();
    }
  }
}
