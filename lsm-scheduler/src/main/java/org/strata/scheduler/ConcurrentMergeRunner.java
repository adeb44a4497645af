package org.strata.scheduler;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.spi.IoOperation;

/** Runs each merge on a thread of its own (threads are reused); shared by fair and greedy. */
final class ConcurrentMergeRunner {
  private static final Logger LOG = LogManager.getLogger(ConcurrentMergeRunner.class);

  private final ExecutorService executor;

  ConcurrentMergeRunner(String name) {
    AtomicInteger n = new AtomicInteger();
    this.executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
        new SynchronousQueue<>(), r -> {
          Thread t = new Thread(r, "strata-" + name + "-merge-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }

  void start(IoOperation op) {
    executor.execute(op::run);
  }

  /** Lets running merges notice the closing store and return; waits for them. */
  void close() {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(5, TimeUnit.MINUTES)) {
        LOG.warn("a merge did not stop within 5 minutes of close");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
