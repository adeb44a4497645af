package org.strata.scheduler;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeSchedulerFactory;
import org.strata.lsm.spi.OperationRunner;
import org.strata.lsm.spi.Parameters;

/** {@code single-thread}: see {@link SingleThreadScheduler}. No parameters. */
public final class SingleThreadSchedulerFactory implements MergeSchedulerFactory {
  @Override
  public String name() {
    return "single-thread";
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of();
  }

  @Override
  public MergeScheduler create(Map<String, String> parameters) {
    return create(parameters, new ThreadOperationRunner("single"));
  }

  @Override
  public MergeScheduler create(Map<String, String> parameters, OperationRunner runner) {
    Parameters.of("merge-scheduler 'single-thread'", parameters, parameterNames());
    return new SingleThreadScheduler(runner);
  }
}
