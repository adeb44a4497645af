package org.strata.policy;

/** {@code binomial}: see {@link BinomialMergePolicy}. Parameter {@code num-components} (k). */
public final class BinomialMergePolicyFactory extends BoundedDepthPolicyFactory {
  public BinomialMergePolicyFactory() {
    super("binomial", BinomialMergePolicy::new);
  }
}
