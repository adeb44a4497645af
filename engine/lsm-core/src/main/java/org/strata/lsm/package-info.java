/**
 * The public API of one LSM B+-tree index: {@link org.strata.lsm.LsmStore} (open, put, delete,
 * get, scan, write batches, flush, compact, stats, close) with its value types ({@link
 * org.strata.lsm.KeyValue}, {@link org.strata.lsm.WriteBatch}, {@link org.strata.lsm.ScanCursor},
 * {@link org.strata.lsm.StoreStats}, {@link org.strata.lsm.MergeRecord}), the modes a configuration
 * chooses ({@link org.strata.lsm.Durability}, {@link org.strata.lsm.LogRecoveryMode}), why a write
 * waited ({@link org.strata.lsm.StallCause}), the injectable surroundings of a store ({@link
 * org.strata.lsm.StoreEnvironment}: clock and file creation) and the exception hierarchy rooted at
 * {@link org.strata.lsm.StrataException}. {@link org.strata.lsm.LsmStore} only delegates to the
 * engine ({@code org.strata.lsm.engine.LsmTree}); nothing here holds engine state.
 */
package org.strata.lsm;
