package org.strata.policy;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/** {@code constant}: see {@link ConstantMergePolicy}. Parameter {@code num-components} (k). */
public final class ConstantMergePolicyFactory implements MergePolicyFactory {
  /** Default k. */
  public static final int DEFAULT_NUM_COMPONENTS = 5;

  @Override
  public String name() {
    return "constant";
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of("num-components");
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of("merge-policy 'constant'", parameters, parameterNames());
    return new ConstantMergePolicy(
        p.intValue("num-components", DEFAULT_NUM_COMPONENTS, 1, 10_000));
  }
}
