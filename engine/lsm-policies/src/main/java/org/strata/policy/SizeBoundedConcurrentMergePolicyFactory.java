package org.strata.policy;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/**
 * {@code size-bounded-concurrent}: see {@link SizeBoundedConcurrentMergePolicy}. Parameters as
 * AsterixDB names them, with AsterixDB's defaults: {@code size-ratio} (1.2), {@code
 * min-merge-component-count} (3), {@code max-merge-component-count} (10), {@code
 * max-component-count} (30), and {@code max-component-size} (1TB), which AsterixDB reads from its
 * storage setting {@code storage.max.component.size}.
 */
public final class SizeBoundedConcurrentMergePolicyFactory implements MergePolicyFactory {
  @Override
  public String name() {
    return "size-bounded-concurrent";
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of("size-ratio", "min-merge-component-count", "max-merge-component-count",
        "max-component-count", "max-component-size");
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    String owner = "merge-policy 'size-bounded-concurrent'";
    Parameters p = Parameters.of(owner, parameters, parameterNames());
    double ratio = p.positiveDouble("size-ratio", 1.2, 1000.0);
    int min = p.intValue("min-merge-component-count", 3, 2, 10_000);
    int max = p.intValue("max-merge-component-count", 10, min, 10_000);
    int maxComponents = p.intValue("max-component-count", 30, 1, 1_000_000);
    long maxSize = ByteSize.parse(owner + " parameter max-component-size",
        parameters.getOrDefault("max-component-size", "1TB")).bytes();
    if (maxSize < 1) {
      throw InvalidConfigurationException.of(
          owner + " parameter max-component-size", parameters.get("max-component-size"),
          "a size of at least one byte, e.g. 10GB");
    }
    return new SizeBoundedConcurrentMergePolicy(ratio, min, max, maxComponents, maxSize);
  }
}
