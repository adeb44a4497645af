package org.strata.asterix;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.OperationRunner;

/**
 * Starts the operations a Strata scheduler chooses on threads made by Hyracks' thread factory (the
 * one AsterixDB hands its I/O scheduler), each on a thread of its own; idle threads are kept 30 s.
 */
final class ThreadFactoryRunner implements OperationRunner {
  private static final Logger LOG = LogManager.getLogger(ThreadFactoryRunner.class);

  private final ExecutorService executor;

  ThreadFactoryRunner(ThreadFactory threadFactory) {
    this.executor = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
        new SynchronousQueue<>(), threadFactory);
  }

  @Override
  public void start(IoOperation op) {
    executor.execute(op::run);
  }

  @Override
  public void close() {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(5, TimeUnit.MINUTES)) {
        LOG.warn("a Hyracks merge did not finish within 5 minutes of closing its scheduler");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
