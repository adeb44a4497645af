package org.strata.policy;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/**
 * {@code prefix}: see {@link PrefixMergePolicy}. Parameters {@code max-mergable-component-size}
 * (bytes or a size such as 1GB; default 1GB) and {@code max-tolerance-component-count} (default 5),
 * spelled as in AsterixDB.
 */
public final class PrefixMergePolicyFactory implements MergePolicyFactory {
  @Override
  public String name() {
    return "prefix";
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of("max-mergable-component-size", "max-tolerance-component-count");
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of("merge-policy 'prefix'", parameters, parameterNames());
    String size = parameters.getOrDefault("max-mergable-component-size", "1GB");
    long max = ByteSize.parse("merge-policy 'prefix' parameter max-mergable-component-size", size)
        .bytes();
    if (max < 1) {
      throw InvalidConfigurationException.of(
          "merge-policy 'prefix' parameter max-mergable-component-size", size,
          "a positive size such as 1GB");
    }
    return new PrefixMergePolicy(max, p.intValue("max-tolerance-component-count", 5, 2, 100_000));
  }
}
