/**
 * Strata's merge policies, each an implementation of the SPI's {@code MergePolicy} with its {@code
 * MergePolicyFactory} listed in {@code META-INF/services}: Mao et al.'s stack-based policies
 * ({@link org.strata.policy.ConstantMergePolicy}, {@link org.strata.policy.BigtableMergePolicy},
 * {@link org.strata.policy.ExploringMergePolicy}, {@link org.strata.policy.MinLatencyMergePolicy},
 * {@link org.strata.policy.BinomialMergePolicy}, sharing {@link
 * org.strata.policy.BoundedDepthPolicy}), the level policies of Luo &amp; Carey and Dostoevsky
 * ({@link org.strata.policy.FluidMergePolicy} behind {@code tiering}, {@code leveling}, {@code
 * lazy-leveling} and {@code fluid}; {@link org.strata.policy.SizeTieredMergePolicy}; {@link
 * org.strata.policy.PartitionedLevelingPolicy} and {@link org.strata.policy.TriadDiskPolicy} over
 * partitioned runs), AsterixDB's {@link org.strata.policy.PrefixMergePolicy} and {@link
 * org.strata.policy.NoMergePolicy}. A policy only chooses merges through its {@code MergeContext};
 * it never runs one. docs/policies.md lists every policy and parameter.
 */
package org.strata.policy;
