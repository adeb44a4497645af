package org.strata.policy;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/** {@code no-merge}: see {@link NoMergePolicy}. No parameters. */
public final class NoMergePolicyFactory implements MergePolicyFactory {
  @Override
  public String name() {
    return "no-merge";
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of();
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters.of("merge-policy 'no-merge'", parameters, parameterNames());
    return new NoMergePolicy();
  }
}
