package org.strata.lsm.engine;

import java.util.List;
import java.util.concurrent.locks.Condition;
import org.strata.lsm.events.SealEvent;
import org.strata.lsm.memory.MemoryComponent;

/**
 * The memory components of one index: the active one that writers insert into and the sealed
 * ones waiting for their flush (both listed in the current {@link Version}, active first). Sealing
 * makes the active component immutable and starts a new one.
 *
 * <p>Locks. Writers insert under the shared side of the switch lock; sealing takes the exclusive
 * side, so a sealed component holds exactly the writes logged while it was active. The switch
 * lock is the tree's group's ({@link TreeServices#switchLock()}), shared by all the group's
 * trees. The group takes it exclusively and rolls its log before it seals its trees, each under
 * its tree lock (a store's tree lock is its group's lock), and {@link #seal()} re-enters it.
 */
final class MemoryComponents {
  private final VersionSet versions;
  private final Condition changed;
  private final long size;
  private final long liveSize;
  private final int count;
  /** Moves hot keys into the fresh component at a seal of a full one (TRIAD-MEM), or null. */
  private final Carrier carrier;
  /** Writers insert under the read side; sealing takes the write side (see the class comment). */
  private final SwitchLock switchLock;

  private volatile MemoryComponent active;
  private long nextMemoryId = 1; // guarded by the tree lock
  private long lastSealedId = -1; // guarded by the tree lock

  /**
   * What a seal of a full component may do between the old and the new component (TRIAD-MEM,
   * {@link TriadMem}): runs under the exclusive switch lock, after the group rolled its log.
   */
  interface Carrier {
    void carry(MemoryComponent sealed, MemoryComponent fresh);
  }

  /**
   * @param changed the tree's condition, signalled after a seal
   * @param size bytes at which the active component is full ({@code memory-component.size})
   * @param liveSize the bytes of its keys' newest versions at which the active component is full
   *     too ({@code memory-component.live-size}; 0: no such bound)
   * @param count memory components, active and sealed ({@code memory-component.count})
   * @param carrier run at seals of full components (null: none)
   * @param switchLock the group's switch lock
   */
  MemoryComponents(VersionSet versions, Condition changed, long size, long liveSize, int count,
      Carrier carrier, SwitchLock switchLock) {
    this.switchLock = switchLock;
    this.carrier = carrier;
    this.versions = versions;
    this.changed = changed;
    this.size = size;
    this.liveSize = liveSize;
    this.count = count;
  }

  /** Creates the first active component (at open). */
  MemoryComponent start() {
    active = new MemoryComponent(nextMemoryId++);
    return active;
  }

  /**
   * The active component. Insert into it only under the shared side of the switch lock (its log
   * owner's write sequence, {@link LogOwner#write}).
   */
  MemoryComponent active() {
    return active;
  }

  /**
   * True when the active component has reached its size, or its keys' newest versions have
   * reached the live size (if one is set).
   */
  boolean activeFull() {
    MemoryComponent a = active;
    return a.sizeBytes() >= size || liveSize > 0 && a.liveBytes() >= liveSize;
  }

  /** True when another memory component may be added. Caller holds the tree lock. */
  boolean canSeal() {
    assert versions.lockHeld() : "caller holds the tree lock";
    return versions.current().memory.size() < count;
  }

  /** True when the active component is empty or may be sealed now. Caller holds the tree lock. */
  boolean canSealActive() {
    assert versions.lockHeld() : "caller holds the tree lock";
    return active.isEmpty() || canSeal();
  }

  /** Seals the active component and starts a new one. Caller holds the tree lock. */
  void seal() {
    seal(false);
  }

  /**
   * Seals the active component and starts a new one; {@code full} says the seal is because the
   * component is full (then the {@link Carrier}, if any, runs). Caller holds the tree lock.
   */
  void seal(boolean full) {
    assert versions.lockHeld() : "caller holds the tree lock";
    SealEvent event = new SealEvent();
    event.begin();
    MemoryComponent old;
    switchLock.lockExclusive();
    try {
      old = active;
      old.seal();
      lastSealedId = old.id();
      MemoryComponent fresh = new MemoryComponent(nextMemoryId++);
      if (full && carrier != null) {
        carrier.carry(old, fresh);
      }
      active = fresh;
      versions.sealed(fresh);
    } finally {
      switchLock.unlockExclusive();
    }
    changed.signalAll();
    if (event.shouldCommit()) {
      event.memoryComponent = old.id();
      event.entries = old.entryCount();
      event.bytes = old.sizeBytes();
      event.full = full;
      event.commit();
    }
  }

  /** The oldest sealed component (the next to flush), or null. Caller holds the tree lock. */
  MemoryComponent oldestSealed() {
    assert versions.lockHeld() : "caller holds the tree lock";
    List<MemoryComponent> mem = versions.current().memory;
    for (int i = mem.size() - 1; i >= 0; i--) {
      if (mem.get(i).isSealed()) {
        return mem.get(i);
      }
    }
    return null;
  }

  /**
   * The id of the newest component sealed so far, or -1. It may have left the version already
   * while its flush is still finishing (a retired component's log truncation), so a caller waits
   * for the flusher to report it handled, not for it to leave the version. Caller holds the tree
   * lock.
   */
  long newestSealedId() {
    assert versions.lockHeld() : "caller holds the tree lock";
    return lastSealedId;
  }

  /**
   * True when a sealed component with an id up to {@code id} is in the version. Caller holds the
   * tree lock.
   */
  boolean hasSealedUpTo(long id) {
    assert versions.lockHeld() : "caller holds the tree lock";
    for (MemoryComponent mc : versions.current().memory) {
      if (mc.isSealed() && mc.id() <= id) {
        return true;
      }
    }
    return false;
  }

  /** The lowest log sequence number in any memory component, or MAX_VALUE. Caller holds lock. */
  long minLsn() {
    assert versions.lockHeld() : "caller holds the tree lock";
    long min = Long.MAX_VALUE;
    for (MemoryComponent mc : versions.current().memory) {
      min = Math.min(min, mc.minLsn());
    }
    return min;
  }
}
