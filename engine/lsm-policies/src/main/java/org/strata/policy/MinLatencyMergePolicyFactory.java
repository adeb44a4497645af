package org.strata.policy;

/** {@code min-latency}: see {@link MinLatencyMergePolicy}. Parameter {@code num-components} (k). */
public final class MinLatencyMergePolicyFactory extends BoundedDepthPolicyFactory {
  public MinLatencyMergePolicyFactory() {
    super("min-latency", MinLatencyMergePolicy::new);
  }
}
