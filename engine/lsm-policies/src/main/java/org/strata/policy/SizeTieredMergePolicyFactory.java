package org.strata.policy;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/**
 * {@code size-tiered}: see {@link SizeTieredMergePolicy}. Parameters {@code size-ratio} (1.2),
 * {@code min-merge} (2), {@code max-merge} (10), {@code max-component-count} (50), {@code
 * merge-exactly-min} (false).
 */
public final class SizeTieredMergePolicyFactory implements MergePolicyFactory {
  @Override
  public String name() {
    return "size-tiered";
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of("size-ratio", "min-merge", "max-merge", "max-component-count",
        "merge-exactly-min");
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of("merge-policy 'size-tiered'", parameters, parameterNames());
    double ratio = p.positiveDouble("size-ratio", 1.2, 1000.0);
    int min = p.intValue("min-merge", 2, 2, 10_000);
    int max = p.intValue("max-merge", 10, min, 10_000);
    int maxComponents = p.intValue("max-component-count", 50, 1, 1_000_000);
    return new SizeTieredMergePolicy(ratio, min, max, maxComponents,
        p.booleanValue("merge-exactly-min", false));
  }
}
