package org.strata.lsm.spi;

import java.util.Map;
import java.util.Set;

/**
 * Creates {@link MergePolicy} instances by name. Implementations are listed in {@code
 * META-INF/services/org.strata.lsm.spi.MergePolicyFactory} and discovered with {@link
 * java.util.ServiceLoader}, so a jar on the class path adds a policy.
 */
public interface MergePolicyFactory {
  /** The name that configurations use, e.g. {@code "constant"}. */
  String name();

  /** Every parameter name {@link #create} accepts. */
  Set<String> parameterNames();

  /**
   * Creates a policy for one index.
   *
   * @param parameters parameter values as strings; missing ones take documented defaults
   * @throws org.strata.lsm.InvalidConfigurationException naming the parameter, the value and what is
   *     allowed, for an unknown parameter or an invalid value
   */
  MergePolicy create(Map<String, String> parameters);
}
