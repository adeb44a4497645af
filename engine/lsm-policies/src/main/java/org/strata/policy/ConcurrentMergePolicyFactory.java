package org.strata.policy;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/**
 * {@code concurrent}: see {@link ConcurrentMergePolicy}. Parameters as AsterixDB names them, with
 * AsterixDB's defaults: {@code size-ratio} (1.2), {@code min-merge-component-count} (3), {@code
 * max-merge-component-count} (10), {@code max-component-count} (30).
 */
public final class ConcurrentMergePolicyFactory implements MergePolicyFactory {
  @Override
  public String name() {
    return "concurrent";
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of("size-ratio", "min-merge-component-count", "max-merge-component-count",
        "max-component-count");
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of("merge-policy 'concurrent'", parameters, parameterNames());
    double ratio = p.positiveDouble("size-ratio", 1.2, 1000.0);
    int min = p.intValue("min-merge-component-count", 3, 2, 10_000);
    int max = p.intValue("max-merge-component-count", 10, min, 10_000);
    int maxComponents = p.intValue("max-component-count", 30, 2, 1_000_000);
    return new ConcurrentMergePolicy(ratio, min, max, maxComponents);
  }
}
