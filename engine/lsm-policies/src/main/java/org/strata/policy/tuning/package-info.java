/**
 * Dostoevsky's closed-form cost model and tuner for Fluid LSM-trees (docs/papers/dostoevsky.md):
 * {@link
 * org.strata.policy.tuning.DostoevskyCostModel} predicts the costs ({@link
 * org.strata.policy.tuning.FluidCosts}) of a design (T, K, Z) for a data and machine shape ({@link
 * org.strata.policy.tuning.LsmShape}) and an operation mix ({@link
 * org.strata.policy.tuning.Workload}); {@link org.strata.policy.tuning.DostoevskyTuner} finds the
 * cheapest design; {@code strata tune} prints both. Pure arithmetic: no
 * simulation, no engine.
 */
package org.strata.policy.tuning;
