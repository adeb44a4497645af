package org.strata.lsm.testing;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeSchedulerFactory;

/**
 * Test scheduler {@code test-parked}: accepts merges and never runs them, so a test can look at a
 * store whose merges are scheduled but not done. Closing the store abandons them.
 */
public final class ParkedScheduler implements MergeScheduler {
  @Override
  public void schedule(IoOperation op) {}

  @Override
  public void completed(IoOperation op) {}

  @Override
  public void close() {}

  /** The factory. */
  public static final class Factory implements MergeSchedulerFactory {
    @Override
    public String name() {
      return "test-parked";
    }

    @Override
    public Set<String> parameterNames() {
      return Set.of();
    }

    @Override
    public MergeScheduler create(Map<String, String> parameters) {
      return new ParkedScheduler();
    }
  }
}
