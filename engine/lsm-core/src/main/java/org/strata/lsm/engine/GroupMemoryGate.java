package org.strata.lsm.engine;

import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.strata.lsm.StorageException;
import org.strata.lsm.config.FlowControl;
import org.strata.lsm.io.Clock;

/**
 * Where the writers of a dataset partition wait for memory: carries out {@link WriteAdmission}'s
 * decision on the {@link TreeGroup}'s memory budget. It seals all trees when the budget is used up
 * and each can take a seal, waits while some cannot (counting a memory-full stall), and fails
 * while a tree's flush has failed. Each tree's component constraint is its own {@link WriteGate}'s.
 * A partition's writes are admitted as soon as possible: they are not paced.
 */
final class GroupMemoryGate {
  private final WriteAdmission admission = new WriteAdmission(FlowControl.Admission.ASAP, 1);
  private final ReentrantLock lock;
  private final Condition changed;
  private final Clock clock;
  private final StallTracker stalls;
  private final long memoryBudget;
  private final List<LsmTree> trees;
  private final Runnable ensureOpen;
  private final Runnable sealAll;

  /**
   * @param lock the group's lock, taken while deciding; {@code changed} is its condition
   * @param memoryBudget bytes of active memory components, summed over {@code trees}, that trigger
   *     a seal of all of them
   * @param trees the group's trees, read at each decision
   * @param ensureOpen throws if the group is closed or not started
   * @param sealAll rolls the log and seals every tree; called with {@code lock} held
   */
  GroupMemoryGate(ReentrantLock lock, Condition changed, Clock clock, StallTracker stalls,
      long memoryBudget, List<LsmTree> trees, Runnable ensureOpen, Runnable sealAll) {
    this.lock = lock;
    this.changed = changed;
    this.clock = clock;
    this.stalls = stalls;
    this.memoryBudget = memoryBudget;
    this.trees = trees;
    this.ensureOpen = ensureOpen;
    this.sealAll = sealAll;
  }

  /** Returns once a write of the group may take memory; see the class comment. */
  void admit() {
    AdmissionLoop.admit(admission, lock, changed, clock, stalls, new AdmissionLoop.Site() {
      @Override
      public void ensureOpen() {
        ensureOpen.run();
      }

      @Override
      public WriteAdmission.State state(long unpacedBytes) {
        return memoryState();
      }

      @Override
      public void seal() {
        sealAll.run();
      }

      @Override
      public void pace(long bytes) {
        throw new IllegalStateException("a partition's writes are not paced");
      }

      @Override
      public StorageException failure(WriteAdmission.Decision d) {
        return new StorageException("writes are stopped: "
            + (d.reason() == WriteAdmission.Reason.BACKGROUND_ERROR
                ? "a background flush of an index failed: "
                : "every memory component of an index is full and its last flush failed: ")
            + d.error() + "; flush() retries it", d.error());
      }
    }, 0);
  }

  /** What a writer of the group sees of its memory. Caller holds the group's lock. */
  private WriteAdmission.State memoryState() {
    assert lock.isHeldByCurrentThread() : "caller holds the group's lock";
    long active = 0;
    boolean canSeal = true;
    Throwable background = null;
    Throwable flushError = null;
    for (LsmTree t : trees) {
      GroupMember m = t.member();
      active += m.activeBytes();
      canSeal &= m.canSealActive();
      background = background != null ? background : m.backgroundError();
      flushError = flushError != null ? flushError : m.lastFlushError();
    }
    return new WriteAdmission.State(background, 0, 0, Integer.MAX_VALUE,
        WriteAdmission.Memory.GROUP, active >= memoryBudget, canSeal, flushError, false, false);
  }
}
