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
}
