package org.strata.ycsb.feed;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The feed server's bound on request bytes held, across all connections ({@link
 * FeedLimits#maxBufferedBytes()}): the line each connection is receiving, its lines waiting to be
 * applied and the one being applied, plus room for one read in progress. A connection asks for
 * room for one more read ({@link #reserveRead}) before it reads its socket; when that read's
 * bytes are in, its charge becomes what it holds ({@link #readDone}), and it shrinks as its lines
 * are applied ({@link #released}).
 *
 * <p>Every connection has {@code share} bytes of its own: a connection whose lines are short is
 * always read, however many others hold long unfinished lines. Beyond its share a connection needs
 * one of the {@code slots}, each room for one whole line of the longest length and one read
 * ({@code slotBytes}). Room is handed out in whole slots, not byte by byte, so that a connection
 * that got one can always finish the line it is receiving: room given piecemeal could end up
 * spread over many unfinished lines none of which can get the rest, and then no line would ever
 * end. So all connections together hold at most {@code maxConnections * share + slots * slotBytes},
 * at most {@code maxBufferedBytes}. A connection gives its slot back once what it holds is within
 * its share again; while others wait for a slot, it finishes the line it is receiving but starts
 * no new one beyond its share. A connection that cannot get room is not read (TCP then slows its
 * client) and waits in line; whenever a slot frees, the first waiting connection gets it and is
 * asked to read. Thread-safe.
 */
final class InputBudget {
  private final long share;
  private final long slotBytes;
  private final int slots;
  private final int readBytes;
  private final FeedStats stats;
  private final ArrayDeque<Account> waiters = new ArrayDeque<>(); // guarded by this
  private int slotsUsed; // guarded by this
  private long charged; // guarded by this

  /** One connection's part. */
  final class Account {
    private final LongSupplier held;
    private final LongSupplier partial;
    private final Runnable wake;
    private long charge; // guarded by InputBudget.this
    private boolean reading; // guarded by InputBudget.this: room for one read is in the charge
    private boolean slotted; // guarded by InputBudget.this
    private boolean queued; // guarded by InputBudget.this
    private boolean closed; // guarded by InputBudget.this

    private Account(LongSupplier held, LongSupplier partial, Runnable wake) {
      this.held = held;
      this.partial = partial;
      this.wake = wake;
    }
  }

  /**
   * @param share bytes every connection may hold whatever the others hold (at least {@code
   *     readBytes})
   * @param slotBytes room of one slot, beyond a connection's share: one longest line and one read
   * @param slots slots for all connections together (at least 1)
   * @param readBytes most bytes one read brings
   */
  InputBudget(long share, long slotBytes, int slots, int readBytes, FeedStats stats) {
    if (share < readBytes || slots < 1 || slotBytes < readBytes) {
      throw new IllegalArgumentException("input budget: share " + share + ", slots " + slots
          + " of " + slotBytes + ", read " + readBytes);
    }
    this.share = share;
    this.slotBytes = slotBytes;
    this.slots = slots;
    this.readBytes = readBytes;
    this.stats = stats;
  }

  /** The budget of {@code limits}. */
  InputBudget(FeedLimits limits, FeedStats stats) {
    this(FeedLimits.INPUT_SHARE_BYTES, limits.inputSlotBytes(), limits.inputSlots(),
        FeedLimits.READ_BYTES, stats);
  }

  /**
   * A new connection's account. {@code held} gives the bytes the connection holds now, {@code
   * partial} those of the line it is receiving (both may be called on any thread, under the
   * budget's lock); {@code wake} asks the connection to read (called without the lock, from any
   * thread) once room was reserved for it.
   */
  Account open(LongSupplier held, LongSupplier partial, Runnable wake) {
    return new Account(held, partial, wake);
  }

  /**
   * True if the connection may read now: room for what it holds plus one read is counted. Else it
   * waits in line, and is given the room and woken once it can be.
   */
  synchronized boolean reserveRead(Account a) {
    if (a.closed) {
      return false;
    }
    if (a.reading || grant(a, false)) {
      return true;
    }
    if (!a.queued) {
      a.queued = true;
      waiters.add(a);
      stats.bufferWaits.incrementAndGet();
      stats.waitingForBufferRoom.incrementAndGet();
    }
    return false;
  }

  /** The read's bytes are taken: the charge becomes what the connection holds. */
  void readDone(Account a) {
    update(a, () -> {
      a.reading = false;
      return a.closed ? Math.min(a.charge, a.held.getAsLong()) : a.held.getAsLong();
    });
  }

  /** The connection holds less than before (a line applied, a partial line dropped). */
  void released(Account a) {
    update(a, () -> Math.min(a.charge, a.held.getAsLong() + (a.reading ? readBytes : 0)));
  }

  /**
   * The connection is gone: it reads no more and leaves the line; what it still holds (lines its
   * worker has yet to apply) stays counted until {@link #released}.
   */
  void close(Account a) {
    update(a, () -> {
      a.closed = true;
      a.reading = false;
      if (a.queued) {
        a.queued = false;
        waiters.remove(a);
        stats.waitingForBufferRoom.decrementAndGet();
      }
      return Math.min(a.charge, a.held.getAsLong());
    });
  }

  /** Sets {@code a}'s charge to what {@code charge} says (under the lock), then wakes waiters. */
  private void update(Account a, LongSupplier charge) {
    List<Account> woken;
    synchronized (this) {
      int slotsBefore = slotsUsed;
      set(a, charge.getAsLong());
      woken = wakeWaiters(a, slotsUsed < slotsBefore);
    }
    woken.forEach(w -> w.wake.run());
  }

  /**
   * Counts room for {@code a}'s bytes plus one read if it can have it (lock held): within its
   * share; or within a slot it has (finishing its line, or starting a new one if nobody waits or
   * {@code inLine}: it is the first waiting); or within a free slot.
   */
  private boolean grant(Account a, boolean inLine) {
    long want = a.held.getAsLong() + readBytes;
    if (want > share) {
      if (want > share + slotBytes) {
        return false; // its waiting lines must be applied first
      }
      if (a.slotted) {
        boolean othersWait = !inLine && waiters.stream().anyMatch(w -> w != a);
        if (othersWait && a.partial.getAsLong() == 0) {
          return false; // no new long line while others wait for a slot
        }
      } else if (slotsUsed < slots) {
        a.slotted = true;
        slotsUsed++;
      } else {
        return false;
      }
    }
    set(a, Math.max(a.charge, want));
    a.reading = true;
    return true;
  }

  /**
   * After {@code changed}'s charge went down: gives room to waiting connections, first come
   * first served, and returns those to wake (lock held). If no slot was freed ({@code
   * slotFreed}), only {@code changed} itself can newly get room.
   */
  private List<Account> wakeWaiters(Account changed, boolean slotFreed) {
    List<Account> woken = new ArrayList<>(0);
    if (waiters.isEmpty() || (!slotFreed && !changed.queued)) {
      return woken;
    }
    boolean first = true;
    for (Iterator<Account> it = waiters.iterator(); it.hasNext(); ) {
      Account w = it.next();
      if ((slotFreed || w == changed) && grant(w, first)) {
        it.remove();
        w.queued = false;
        stats.waitingForBufferRoom.decrementAndGet();
        woken.add(w);
      }
      first = false;
    }
    return woken;
  }

  private void set(Account a, long charge) {
    charged += charge - a.charge;
    a.charge = charge;
    if (a.slotted && charge <= share) {
      a.slotted = false; // within its share again: the slot goes to whoever waits
      slotsUsed--;
    }
    stats.bufferedBytes.set(charged);
    stats.peakBufferedBytes.accumulateAndGet(charged, Math::max);
  }
}
