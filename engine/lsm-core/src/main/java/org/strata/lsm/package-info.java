/**
 * The value types and exceptions of Strata's public API, which every other package uses and which
 * depend on nothing else of Strata: {@link org.strata.lsm.KeyValue}, {@link
 * org.strata.lsm.ScanCursor}, {@link org.strata.lsm.StoreStats}, {@link
 * org.strata.lsm.MergeRecord}, the modes a configuration chooses ({@link
 * org.strata.lsm.Durability}, {@link org.strata.lsm.LogRecoveryMode}), why a write waited ({@link
 * org.strata.lsm.StallCause}), the limits on keys and values ({@link org.strata.lsm.Limits}) and
 * the exception hierarchy rooted at {@link org.strata.lsm.StrataException}.
 *
 * <p>The store itself is {@code org.strata.lsm.engine.LsmStore} (open, put, delete, get, scan,
 * write batches, flush, compact, stats, close), a dataset {@code org.strata.lsm.dataset.Dataset};
 * a write batch is {@code org.strata.lsm.wal.WriteBatch} and a store's injectable surroundings
 * (clock, file creation, crash points) {@code org.strata.lsm.io.StoreEnvironment}. This package
 * is at the bottom of lsm-core's package order, so it forms no cycle with them
 * (docs/architecture.md, "Package cycles").
 */
package org.strata.lsm;
