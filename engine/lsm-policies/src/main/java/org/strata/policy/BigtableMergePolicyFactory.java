package org.strata.policy;

/** {@code bigtable}: see {@link BigtableMergePolicy}. Parameter {@code num-components} (k). */
public final class BigtableMergePolicyFactory extends BoundedDepthPolicyFactory {
  public BigtableMergePolicyFactory() {
    super("bigtable", BigtableMergePolicy::new);
  }
}
