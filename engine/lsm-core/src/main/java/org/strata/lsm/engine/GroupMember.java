package org.strata.lsm.engine;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The side of a tree that its {@link TreeGroup} uses: the group admits each write, logs it once,
 * inserts into its trees, seals all their active memory components together and truncates the
 * log below every tree's floor. Lock order: the group's lock before the tree lock (a store's tree
 * lock is its group's lock).
 */
final class GroupMember {
  private final ReentrantLock lock;
  private final MemoryComponents memory;
  private final VersionSet versions;
  private final Flusher flusher;
  private final WriteGate gate;
  private final OperationCounter operations;
  private final Runnable ensureOpen;

  GroupMember(ReentrantLock lock, MemoryComponents memory, VersionSet versions, Flusher flusher,
      WriteGate gate, OperationCounter operations, Runnable ensureOpen) {
    this.lock = lock;
    this.memory = memory;
    this.versions = versions;
    this.flusher = flusher;
    this.gate = gate;
    this.operations = operations;
    this.ensureOpen = ensureOpen;
  }

  /** A write stall of the group that ended: the tree's history records it. */
  void stallEnded(org.strata.lsm.StallCause cause, long nanos) {
    versions.stalled(cause, nanos);
  }

  /** Waits while the tree's component constraint stops writes; fails on its background error. */
  void awaitConstraint() {
    gate.admit(WriteAdmission.Memory.NONE, 0);
  }

  /**
   * Returns once a write of {@code unpacedBytes} (0: not paced) may go ahead, when the tree's own
   * memory components are its group's memory budget (a store): one decision over the memory, the
   * pacing and the component constraint; a full memory component has the group seal.
   */
  void admitOwnMemory(long unpacedBytes) {
    gate.admit(WriteAdmission.Memory.TREE, unpacedBytes);
  }

  /** Whether writes may be paced ({@code flow-control.admission} is not {@code asap}). */
  boolean paces() {
    return gate.paces();
  }

  /** The active memory component, for a replay of the group's log at open. */
  org.strata.lsm.memory.MemoryComponent active() {
    return memory.active();
  }

  /**
   * Inserts a logged operation replayed from the log; the group holds its switch lock (shared),
   * so no seal runs. Not counted as an update ({@link #write} is).
   */
  void insert(byte[] key, byte[] value, long lsn) {
    memory.active().put(key, value, lsn);
  }

  /** {@link #insert} for a user's write, counted as an update. */
  void write(byte[] key, byte[] value, long lsn) {
    memory.active().put(key, value, lsn);
    operations.updated(1);
  }

  /** Bytes the active memory component charges to the memory budget. */
  long activeBytes() {
    return memory.active().sizeBytes();
  }

  /** True when sealing the active memory component would not exceed the memory components. */
  boolean canSealActive() {
    return locked(memory::canSealActive);
  }

  /**
   * Seals a non-empty active memory component and queues its flush; the group holds its switch
   * lock exclusively and has rolled the log. {@code full}: sealed because the memory budget is
   * used up (TRIAD-MEM may carry hot keys).
   */
  void seal(boolean full) {
    lock.lock();
    try {
      ensureOpen.run();
      if (!memory.active().isEmpty()) {
        memory.seal(full);
        flusher.sealed();
      }
    } finally {
      lock.unlock();
    }
  }

  /** The highest sequence number on disk (the manifest's flushed LSN). */
  long flushedLsn() {
    return locked(versions::flushedLsn);
  }

  /**
   * The sequence number below which the tree needs nothing from the log: one less than the lowest
   * number in its unflushed (or not yet durably listed) memory components, or {@link
   * Long#MAX_VALUE} if there are none.
   */
  long logFloor() {
    long min = locked(() -> Math.min(versions.becomingDurableMinLsn(), memory.minLsn()));
    return min == Long.MAX_VALUE ? Long.MAX_VALUE : min - 1;
  }

  /** The error of the last flush if it failed and none has succeeded since, else null. */
  Throwable lastFlushError() {
    return locked(flusher::lastError);
  }

  /** The sticky background error that stops writes, or null. */
  Throwable backgroundError() {
    return locked(flusher::backgroundError);
  }

  private <T> T locked(Supplier<T> read) {
    lock.lock();
    try {
      return read.get();
    } finally {
      lock.unlock();
    }
  }
}
