package org.strata.lsm.engine;

import java.util.List;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.io.CrashPoints;
import org.strata.lsm.wal.LogOp;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * One write-ahead log with the switch lock of the memory components whose writes it logs, and the
 * engine's one write sequence: every {@link TreeGroup} (a store's group of one, a dataset
 * partition's) keeps one, so a write is logged, inserted and made durable by one code path.
 *
 * <p>Locks. Writers log and insert under the shared side of {@link #switchLock()}; a seal takes the
 * exclusive side and rolls the log ({@link #roll()}) before it seals, so a sealed memory
 * component holds exactly the writes logged between two rolls. The log's own locks are taken
 * inside (after every engine lock).
 */
final class LogOwner {
  /** Inserts one operation of a logged write into its tree's active memory component. */
  @FunctionalInterface
  interface Inserter {
    /**
     * Inserts operation {@code i} of the write, logged at sequence number {@code lsn}. Called under
     * the shared switch lock, in operation order.
     */
    void insert(int i, long lsn);
  }

  private final SwitchLock switchLock = new SwitchLock();
  private final CrashPoints crashPoints;
  /** The log, once replayed (a store) or started (a partition); null before. */
  private volatile WriteAheadLog wal;

  LogOwner(CrashPoints crashPoints) {
    this.crashPoints = crashPoints;
  }

  /** Takes the log once it is open for appends. */
  void opened(WriteAheadLog log) {
    if (wal != null) {
      throw new IllegalStateException("the log of this owner is open already: " + wal.directory());
    }
    wal = log;
  }

  /** The log, or null before {@link #opened}. */
  WriteAheadLog wal() {
    return wal;
  }

  /** The switch lock writers insert under (shared) and seals take (exclusive). */
  SwitchLock switchLock() {
    return switchLock;
  }

  /**
   * The write sequence: under the shared switch lock, appends {@code logged} as one log record
   * (one sequence number per operation) and inserts each operation with its number; then, outside
   * the lock, makes the record durable as the log's durability says ({@link
   * WriteAheadLog#committed}). No seal runs between the append and the inserts, so a memory
   * component holds exactly the writes logged while it was active.
   */
  void write(List<LogOp> logged, Inserter inserter) {
    long lsn;
    long shared = switchLock.lockShared();
    try {
      lsn = wal.append(logged);
      long first = lsn - logged.size() + 1;
      for (int i = 0; i < logged.size(); i++) {
        inserter.insert(i, first + i);
      }
    } finally {
      switchLock.unlockShared(shared);
    }
    wal.committed(lsn);
  }

  /**
   * Rolls the log at a seal, before the memory components are sealed: a flush that finds its
   * component sealed writes the log up to this roll's boundary first. Caller holds the switch
   * lock exclusively.
   */
  void roll() {
    assert switchLock.heldExclusively() : "caller holds the switch lock exclusively";
    wal.roll();
    crashPoints.reached(CrashPoint.LOG_ROTATION);
  }

  /** Forces the log: every write that returned before is durable after. */
  void sync() {
    wal.syncAll();
  }

  /** Log segment files, for tests and statistics. */
  int segmentCount() {
    return wal.segmentCount();
  }

  /** Closes the log if it was opened. */
  void close() {
    WriteAheadLog log = wal;
    if (log != null) {
      log.close();
    }
  }
}
