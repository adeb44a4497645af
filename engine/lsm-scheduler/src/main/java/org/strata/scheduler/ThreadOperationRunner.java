package org.strata.scheduler;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.OperationRunner;

/**
 * The runner of a store: each started operation runs on a thread of its own (idle threads are
 * reused for 30 s), so merges proceed concurrently and share the store's I/O throttle.
 */
public final class ThreadOperationRunner implements OperationRunner {
  private static final Logger LOG = LogManager.getLogger(ThreadOperationRunner.class);

  private final ExecutorService executor;

  /** @param name the scheduler's name, used in the names of its daemon threads */
  public ThreadOperationRunner(String name) {
    this(daemonThreads(name));
  }

  /**
   * A runner whose threads come from {@code threadFactory} (a host system's, such as the one
   * Hyracks hands its I/O scheduler).
   */
  public ThreadOperationRunner(ThreadFactory threadFactory) {
    this.executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
        new SynchronousQueue<>(), threadFactory);
  }

  private static ThreadFactory daemonThreads(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      // A merge thread: a device model serves its reads and writes after everything else.
      Thread t = new org.strata.lsm.io.IoThread(r, "strata-" + name + "-merge-"
          + n.incrementAndGet(), org.strata.lsm.io.IoClass.MERGE);
      t.setDaemon(true);
      return t;
    };
  }

  @Override
  public void start(IoOperation op) {
    executor.execute(op::run);
  }

  /** Lets running operations notice the closing store and return; waits for them. */
  @Override
  public void close() {
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
