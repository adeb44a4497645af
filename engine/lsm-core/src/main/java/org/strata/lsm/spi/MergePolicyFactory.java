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
   * @throws org.strata.lsm.InvalidConfigurationException naming the parameter, the value and what
   *     is allowed, for an unknown parameter or an invalid value
   */
  MergePolicy create(Map<String, String> parameters);

  /**
   * The capabilities a policy of this factory needs from its {@link MergeContext} beyond whole runs
   * of one component each; none by default. A context that lacks one refuses the policy when it is
   * created ({@link PolicyHost#check}), so a policy may rely on what it declares: a policy that
   * returns {@link MergeRequest.Components} declares {@link
   * MergeContext.Capability#PARTITIONED_RUNS}, one that returns {@link MergeRequest.Routed} or
   * {@link MergeRequest.Move} {@link MergeContext.Capability#ROUTED_MERGES}, one that compares key
   * ranges {@link MergeContext.Capability#KEY_RANGES}, one that reads {@link
   * MergeContext#distinctKeys} {@link MergeContext.Capability#KEY_SKETCHES}.
   */
  default Set<MergeContext.Capability> requiredCapabilities() {
    return Set.of();
  }
}
