package org.strata.lsm.engine;

import java.util.List;
import java.util.function.Supplier;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.io.CrashPoints;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * The {@link LogHold} of the trees of a dataset partition, kept by their {@link TreeGroup}: holds
 * the shared log through a tree's memory component, truncates it below every tree's floor once
 * the flush is durable, and wakes the group's writers whenever a flush ends.
 */
final class GroupLogHold implements LogHold {
  private final Supplier<WriteAheadLog> wal;
  private final List<LsmTree> trees;
  private final CrashPoints crashPoints;
  private final Runnable flushEnded;

  /**
   * @param wal the shared log (set once the group has started)
   * @param trees the group's trees, read at each truncation
   * @param flushEnded wakes the group's writers (takes the group's lock)
   */
  GroupLogHold(Supplier<WriteAheadLog> wal, List<LsmTree> trees, CrashPoints crashPoints,
      Runnable flushEnded) {
    this.wal = wal;
    this.trees = trees;
    this.crashPoints = crashPoints;
    this.flushEnded = flushEnded;
  }

  @Override
  public void holdThrough(MemoryComponent mc) {
    wal.get().holdThrough(mc.maxLsn());
  }

  /** Drops the log segments no tree needs (below every tree's {@link GroupMember#logFloor}). */
  @Override
  public void flushDurable(Manifest manifest) {
    WriteAheadLog log = wal.get();
    long floor = log.lastLsn();
    for (LsmTree t : trees) {
      floor = Math.min(floor, t.member().logFloor());
    }
    crashPoints.reached(CrashPoint.LOG_TRUNCATION);
    log.truncateUpTo(floor);
    flushEnded.run();
  }

  @Override
  public void flushFailed() {
    flushEnded.run();
  }
}
