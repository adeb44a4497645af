/**
 * The engine: groups of LSM trees; docs/architecture.md walks through it in reading order. A
 * {@link org.strata.lsm.engine.TreeGroup} alone owns a log, a memory budget, admission, the seal
 * and a flush thread, and lends its trees what they need ({@link
 * org.strata.lsm.engine.TreeServices}); a store ({@link org.strata.lsm.engine.Store}) is a group
 * of one tree, a dataset partition a group of its indexes ({@link
 * org.strata.lsm.engine.GroupForm}). {@link org.strata.lsm.engine.LsmTree} is one tree; the
 * concepts behind it each have their own class: opening ({@link
 * org.strata.lsm.engine.Recovery}), memory components ({@link
 * org.strata.lsm.engine.MemoryComponents}), write admission ({@link
 * org.strata.lsm.engine.WriteAdmission}, the one decision with its cause, carried out by {@link
 * org.strata.lsm.engine.WriteGate} and {@link org.strata.lsm.engine.AdmissionLoop}), flushes
 * ({@link org.strata.lsm.engine.Flusher} on a group's {@link
 * org.strata.lsm.engine.FlushExecutor}), component files ({@link
 * org.strata.lsm.engine.ComponentFiles}), the current components and their durable list ({@link
 * org.strata.lsm.engine.Version}, {@link org.strata.lsm.engine.VersionEdit}, {@link
 * org.strata.lsm.engine.VersionSet}, {@link org.strata.lsm.engine.Manifest}), merges ({@link
 * org.strata.lsm.engine.MergeCoordinator}, {@link org.strata.lsm.engine.MergeOperation}), reads
 * ({@link org.strata.lsm.engine.ReadPath}) and statistics ({@link
 * org.strata.lsm.engine.EngineStats}, {@link org.strata.lsm.engine.StallTracker}). {@link
 * org.strata.lsm.engine.GroupMember} is the side of a tree its group uses. This package is where
 * the SPI of {@code org.strata.lsm.spi} is called ({@link org.strata.lsm.engine.Plugins} finds its
 * implementations by name); lock orders are documented where each lock is declared.
 */
package org.strata.lsm.engine;
