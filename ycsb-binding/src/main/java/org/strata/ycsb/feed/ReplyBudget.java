package org.strata.ycsb.feed;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The feed server's bound on unsent reply bytes: bytes handed to Netty whose write has not yet
 * completed (they sit in Netty's outbound buffer, in direct memory). A connection {@link #reserve
 * reserves} room before it hands a chunk over and waits, on a condition signalled by every {@link
 * #release}, while its own unsent bytes or the server's total would exceed their bounds; the
 * write's completion releases the room. So a client that never reads holds at most its
 * connection's bound, and all connections together at most the total, whatever they request.
 * The numbers are published in {@link FeedStats} as they change. Thread-safe.
 */
final class ReplyBudget {
  private final long perConnection;
  private final long total;
  private final FeedStats stats;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private long unsent; // guarded by lock
  private int waiters; // guarded by lock
  private boolean closed; // guarded by lock

  /** One connection's share of the budget. */
  final class Account {
    private final Runnable onWait;
    private volatile long unsent; // written under lock
    private volatile boolean waiting; // written under lock
    private boolean closed; // guarded by lock

    private Account(Runnable onWait) {
      this.onWait = onWait;
    }

    /** Bytes of this connection handed to Netty and not yet written to the socket. */
    long unsent() {
      return unsent;
    }

    /** True while this connection's worker waits for room. */
    boolean waiting() {
      return waiting;
    }
  }

  ReplyBudget(long perConnection, long total, FeedStats stats) {
    this.perConnection = perConnection;
    this.total = total;
    this.stats = stats;
  }

  /**
   * A new connection's account; {@code onWait} runs (under the budget's lock, so it must only
   * schedule work) each time the connection starts waiting for room.
   */
  Account open(Runnable onWait) {
    return new Account(onWait);
  }

  /**
   * Waits until {@code bytes} more fit the connection's and the server's bounds, then counts them
   * as unsent. Returns false, reserving nothing, if the account or the budget is closed first (or
   * the thread is interrupted): the caller drops the bytes.
   *
   * @param bytes at most the per-connection bound
   */
  boolean reserve(Account a, int bytes) {
    if (bytes > perConnection) {
      throw new IllegalArgumentException("a reply chunk of " + bytes + " bytes exceeds the bound"
          + " of " + perConnection);
    }
    lock.lock();
    boolean waited = false;
    try {
      while (!a.closed && !closed
          && (a.unsent + bytes > perConnection || unsent + bytes > total)) {
        if (!waited) {
          waited = true;
          waiters++;
          a.waiting = true;
          stats.replyWaits.incrementAndGet();
          stats.waitingForReplyRoom.incrementAndGet();
          a.onWait.run();
        }
        try {
          room.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      if (a.closed || closed) {
        return false;
      }
      a.unsent += bytes;
      unsent += bytes;
      stats.unsentReplyBytes.set(unsent);
      stats.maxUnsentReplyBytes.accumulateAndGet(unsent, Math::max);
      stats.maxConnectionUnsentReplyBytes.accumulateAndGet(a.unsent, Math::max);
      return true;
    } finally {
      if (waited) {
        waiters--;
        a.waiting = false;
        stats.waitingForReplyRoom.decrementAndGet();
      }
      lock.unlock();
    }
  }

  /** Gives back {@code bytes} reserved by {@code a}, once Netty's write of them completed. */
  void release(Account a, int bytes) {
    lock.lock();
    try {
      a.unsent -= bytes;
      unsent -= bytes;
      stats.unsentReplyBytes.set(unsent);
      if (waiters > 0) {
        room.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** The connection is gone: its waiting worker returns and later reservations fail. */
  void close(Account a) {
    lock.lock();
    try {
      a.closed = true;
      room.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** The server stops: every waiting worker returns and later reservations fail. */
  void close() {
    lock.lock();
    try {
      closed = true;
      room.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
