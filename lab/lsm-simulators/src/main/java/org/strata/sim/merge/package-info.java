/**
 * The merge-policy simulator ({@link org.strata.sim.merge.MergeSimulator}): Mao et al.'s model
 * (docs/papers/mao.md#simulation-model) in which the real policy objects decide, flushes add runs,
 * merges complete at once and an output's size is the sum of its inputs, over the SPI's {@code
 * RunList}. It measures write amplification and component counts per flush for {@code strata
 * simulate} and {@code strata figures}, and is the reference the engine's merge decisions are
 * compared with in tests.
 */
package org.strata.sim.merge;
