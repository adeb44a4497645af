/**
 * The write-ahead log (docs/format.md): segment files of checksummed records ({@link
 * org.strata.lsm.wal.WriteAheadLog}, {@link org.strata.lsm.wal.LogRecordCodec}), each record a list
 * of {@link org.strata.lsm.wal.LogOp}s under one log sequence number (LSN). Recovery ({@link
 * org.strata.lsm.wal.LogRecovery}) scans every segment ({@link org.strata.lsm.wal.LogScan}, {@link
 * org.strata.lsm.wal.LogSegmentReader}), decides under the store's {@code LogRecoveryMode} what
 * to do with each bad range and replays intact records into a {@link
 * org.strata.lsm.wal.LogReplayer}; {@link org.strata.lsm.wal.LogVerifier} reports the same without
 * changing anything.
 */
package org.strata.lsm.wal;
