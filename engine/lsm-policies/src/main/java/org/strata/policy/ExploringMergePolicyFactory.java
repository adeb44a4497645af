package org.strata.policy;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/**
 * {@code exploring}: see {@link ExploringMergePolicy}. Parameters {@code num-components} (k,
 * default 5), {@code min} (C, default 2), {@code max} (D, default 10), {@code ratio} (lambda,
 * default 1.2).
 */
public final class ExploringMergePolicyFactory implements MergePolicyFactory {
  @Override
  public String name() {
    return "exploring";
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of("num-components", "min", "max", "ratio");
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of("merge-policy 'exploring'", parameters, parameterNames());
    int k = p.intValue("num-components", BoundedDepthPolicyFactory.DEFAULT_NUM_COMPONENTS, 1,
        1000);
    int min = p.intValue("min", 2, 2, 1000);
    int max = p.intValue("max", 10, min, 1000);
    return new ExploringMergePolicy(k, min, max, p.positiveDouble("ratio", 1.2, 1000.0));
  }
}
