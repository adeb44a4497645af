/**
 * Luo &amp; Carey's two-phase experiment ({@code strata two-phase}, docs/two-phase.md): {@link
 * org.strata.ycsb.twophase.TwoPhaseRunner} loads a system once, finds its maximum write throughput
 * in a closed-loop testing phase ({@link org.strata.ycsb.twophase.ClosedLoopDriver}), then runs an
 * open-loop running phase ({@link org.strata.ycsb.twophase.OpenLoopDriver}) at a fraction of it
 * and judges whether that rate is sustainable ({@link org.strata.ycsb.twophase.Sustainability},
 * {@link org.strata.ycsb.twophase.Trend}). Systems are plugged in as {@link
 * org.strata.ycsb.twophase.TwoPhaseTarget}/{@link org.strata.ycsb.twophase.SystemUnderTest}: Strata
 * through its dataset API ({@link org.strata.ycsb.twophase.StrataDatasetTarget}) or {@code
 * LsmStore.put} ({@link org.strata.ycsb.twophase.StrataStoreTarget}); the peers (RocksDB, Hyracks)
 * and the AsterixDB extension add theirs. {@link org.strata.ycsb.twophase.PhaseSampler}, {@link
 * org.strata.ycsb.twophase.ReportWriter} and {@link org.strata.ycsb.twophase.TwoPhaseCharts} record
 * and report a run; {@link org.strata.ycsb.twophase.TwoPhaseConfig} is its configuration.
 */
package org.strata.ycsb.twophase;
