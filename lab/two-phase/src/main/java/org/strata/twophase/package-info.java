/**
 * Luo &amp; Carey's two-phase experiment ({@code strata two-phase}, docs/two-phase.md): {@link
 * org.strata.twophase.TwoPhaseRunner} loads a system once, finds its maximum write throughput
 * in a closed-loop testing phase ({@link org.strata.twophase.ClosedLoopDriver}), then runs an
 * open-loop running phase ({@link org.strata.twophase.OpenLoopDriver}) at a fraction of it
 * and judges whether that rate is sustainable ({@link org.strata.twophase.Sustainability},
 * {@link org.strata.twophase.Trend}). Systems are plugged in as {@link
 * org.strata.twophase.TwoPhaseTarget}/{@link org.strata.twophase.SystemUnderTest}: Strata
 * through its dataset API ({@link org.strata.twophase.StrataDatasetTarget}) or {@code
 * LsmStore.put} ({@link org.strata.twophase.StrataStoreTarget}); the peers (RocksDB, Hyracks)
 * and the AsterixDB extension add theirs. {@link org.strata.twophase.PhaseSampler}, {@link
 * org.strata.twophase.ReportWriter} and {@link org.strata.twophase.TwoPhaseCharts} record
 * and report a run; {@link org.strata.twophase.TwoPhaseConfig} is its configuration.
 */
package org.strata.twophase;
