package org.strata.lsm.engine;

import java.util.function.Supplier;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.io.CrashPoints;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * The {@link LogHold} of a store's own log (a tree that is not in a dataset partition): holds the
 * log through each flushed memory component, and with TRIAD-MEM forces the records it re-logged
 * for the hot keys it carried out of that component; truncates the log once a flush is durable.
 */
final class StoreLogHold implements LogHold {
  private final Supplier<WriteAheadLog> wal;
  private final TriadMem triadMem;
  private final CrashPoints crashPoints;

  /**
   * @param wal the store's log (set once the log has been replayed)
   * @param triadMem TRIAD-MEM, or null when off
   */
  StoreLogHold(Supplier<WriteAheadLog> wal, TriadMem triadMem, CrashPoints crashPoints) {
    this.wal = wal;
    this.triadMem = triadMem;
    this.crashPoints = crashPoints;
  }

  @Override
  public void holdThrough(MemoryComponent mc) {
    WriteAheadLog log = wal.get();
    log.holdThrough(mc.maxLsn());
    if (triadMem != null && triadMem.relogged() > mc.maxLsn()) {
      // TRIAD-MEM: once the manifest lists mc as flushed, recovery skips the old segment, so the
      // hot keys carried out of mc live only in their re-logged records in the new segment. They
      // reach stable storage before the flush is listed, whatever the durability (docs/format.md,
      // "TRIAD-MEM and the log").
      log.sync(triadMem.relogged());
    }
  }

  @Override
  public void flushDurable(Manifest manifest) {
    crashPoints.reached(CrashPoint.LOG_TRUNCATION);
    wal.get().truncateUpTo(manifest.flushedLsn());
  }

  @Override
  public void flushFailed() {
    // Writers of a store wait on the tree's own condition, which the flusher signals.
  }
}
