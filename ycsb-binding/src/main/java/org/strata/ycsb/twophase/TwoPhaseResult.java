package org.strata.ycsb.twophase;

import java.util.List;

/**
 * Everything a two-phase run measured.
 *
 * @param config the experiment
 * @param loadSeconds time to load (and compact) the dataset
 * @param loadedDiskComponents disk components after loading
 * @param testing the testing phase; its throughput is the maximum write throughput
 * @param runs the running phases, in configuration order
 */
public record TwoPhaseResult(TwoPhaseConfig config, double loadSeconds, long loadedDiskComponents,
    PhaseResult testing, List<PhaseResult> runs) {}
