package org.strata.lsm.spi;

import java.util.Map;
import java.util.Set;

/**
 * Creates {@link MergeScheduler} instances by name; listed in {@code
 * META-INF/services/org.strata.lsm.spi.MergeSchedulerFactory} and found with {@link
 * java.util.ServiceLoader}.
 */
public interface MergeSchedulerFactory {
  /** The name that configurations use, e.g. {@code "single-thread"}. */
  String name();

  /** Every parameter name {@link #create} accepts. */
  Set<String> parameterNames();

  /**
   * Creates a scheduler for one store.
   *
   * @throws org.strata.lsm.InvalidConfigurationException for an unknown parameter or a bad value
   */
  MergeScheduler create(Map<String, String> parameters);

  /**
   * Creates a scheduler that starts its operations on {@code runner} instead of threads of its
   * own; the discrete-event simulator ({@code strata des}) passes a virtual-time runner. The
   * scheduler owns the runner and closes it in {@link MergeScheduler#close()}. Schedulers that can
   * only run on real threads keep this default, which refuses.
   *
   * @throws UnsupportedOperationException if this scheduler cannot run on a given runner
   * @throws org.strata.lsm.InvalidConfigurationException for an unknown parameter or a bad value
   */
  default MergeScheduler create(Map<String, String> parameters, OperationRunner runner) {
    throw new UnsupportedOperationException("merge-scheduler '" + name()
        + "' runs only on its own threads and cannot be driven by a simulator");
  }
}
