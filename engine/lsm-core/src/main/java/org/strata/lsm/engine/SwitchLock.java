package org.strata.lsm.engine;

import java.util.concurrent.locks.StampedLock;

/**
 * The switch lock of a log owner's memory components ({@link LogOwner}): writers log and insert
 * under its shared side, a seal takes its exclusive side, so no seal falls between a write's log
 * append and its inserts.
 *
 * <p>A {@link StampedLock} underneath, whose shared side costs a writer one compare-and-set. A
 * {@link java.util.concurrent.locks.ReentrantReadWriteLock} also counts each reader's holds in a
 * thread-local once a second thread reads: with two writers that bookkeeping took a tenth of the
 * writers' samples (docs/performance-journal.md, "the switch lock"). The shared side is not
 * reentrant (no writer takes it twice); the exclusive side is, for its owner: a dataset
 * partition's seal takes it and then each tree's seal takes it again.
 *
 * <p>Waits are the stamped lock's own (parked, woken by the release); a writer queued for the
 * exclusive side holds back new readers, so a seal is not starved by a stream of writes.
 */
final class SwitchLock {
  private final StampedLock lock = new StampedLock();
  /** The thread holding the exclusive side, or null; written only by that thread. */
  private volatile Thread owner;
  /** Its stamp and hold count, used only by the owner. */
  private long stamp;
  private int holds;

  /** Takes the shared side (a writer's log append and inserts) and returns its stamp. */
  long lockShared() {
    return lock.readLock();
  }

  /** Releases the shared side taken with {@code sharedStamp}. */
  void unlockShared(long sharedStamp) {
    lock.unlockRead(sharedStamp);
  }

  /** Takes the exclusive side (a seal), again if this thread holds it already. */
  void lockExclusive() {
    Thread me = Thread.currentThread();
    if (owner == me) {
      holds++;
      return;
    }
    long s = lock.writeLock();
    owner = me;
    stamp = s;
    holds = 1;
  }

  /** Releases one hold of the exclusive side; the last one lets writers in again. */
  void unlockExclusive() {
    if (owner != Thread.currentThread()) {
      throw new IllegalMonitorStateException("the switch lock is not held exclusively by "
          + Thread.currentThread().getName());
    }
    if (--holds == 0) {
      owner = null;
      lock.unlockWrite(stamp);
    }
  }

  /** Whether the calling thread holds the exclusive side (for assertions). */
  boolean heldExclusively() {
    return owner == Thread.currentThread();
  }
}
