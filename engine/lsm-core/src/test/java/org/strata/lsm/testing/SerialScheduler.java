package org.strata.lsm.testing;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeSchedulerFactory;

/** Test scheduler {@code test-serial}: one merge thread, FIFO. */
public final class SerialScheduler implements MergeScheduler {
  private final ThreadPoolExecutor ex = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS,
      new LinkedBlockingQueue<>(), r -> {
        Thread t = new Thread(r, "test-merge");
        t.setDaemon(true);
        return t;
      });

  @Override
  public void schedule(IoOperation op) {
    ex.execute(op::run);
  }

  @Override
  public void completed(IoOperation op) {}

  @Override
  public void close() {
    ex.getQueue().clear();
    ex.shutdown();
    try {
      ex.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The factory. */
  public static final class Factory implements MergeSchedulerFactory {
    @Override
    public String name() {
      return "test-serial";
    }

    @Override
    public Set<String> parameterNames() {
      return Set.of();
    }

    @Override
    public MergeScheduler create(Map<String, String> parameters) {
      return new SerialScheduler();
    }
  }
}
