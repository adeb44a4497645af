package org.strata.policy;

import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/**
 * Factory of a bounded-depth policy of Mao et al. whose one parameter is {@code num-components}
 * (k, the depth bound; default 5). Subclasses name the policy and construct it.
 */
abstract class BoundedDepthPolicyFactory implements MergePolicyFactory {
  /** Default k. */
  static final int DEFAULT_NUM_COMPONENTS = 5;

  private final String name;
  private final IntFunction<MergePolicy> constructor;

  BoundedDepthPolicyFactory(String name, IntFunction<MergePolicy> constructor) {
    this.name = name;
    this.constructor = constructor;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of("num-components");
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of("merge-policy '" + name + "'", parameters, parameterNames());
    return constructor.apply(p.intValue("num-components", DEFAULT_NUM_COMPONENTS, 1, 1000));
  }
}
