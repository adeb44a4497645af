package org.strata.ycsb.feed;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The feed server's bound on unsent reply bytes: bytes handed to Netty whose write has not yet
 * completed (they sit in Netty's outbound buffer, in direct memory). A connection {@link #reserve
 * reserves} room before it hands a chunk over and waits, on a condition signalled by every {@link
 * #release}, while there is none; the write's completion releases the room.
 *
 * <p>The total is split so that clients that never read cannot take all of it: every connection
 * has {@code share} bytes of its own (at most {@code maxConnections} of them, so at most {@code
 * maxConnections * share} in all), and beyond that draws from {@code shared} bytes common to all,
 * up to its own bound {@code perConnection}. So all connections together hold at most {@code
 * maxConnections * share + shared}, the total, whatever they request, one connection at most its
 * bound, and a connection whose client reads always gets room again once its own bytes are sent,
 * however many others hold theirs. A chunk bigger than the room a connection can get is handed
 * over in pieces. The numbers are published in {@link FeedStats} as they change. Thread-safe.
 */
final class ReplyBudget {
  private final long perConnection;
  private final long share;
  private final long shared;
  private final FeedStats stats;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition room = lock.newCondition();
  private long unsent; // guarded by lock
  private long sharedUsed; // guarded by lock: sum over accounts of max(0, unsent - share)
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

  /**
   * @param perConnection most unsent bytes of one connection
   * @param share bytes every connection may have unsent whatever the others have (at most {@code
   *     perConnection}, at least 1)
   * @param shared bytes beyond their share that connections draw from together
   */
  ReplyBudget(long perConnection, long share, long shared, FeedStats stats) {
    if (share < 1 || share > perConnection || shared < 0) {
      throw new IllegalArgumentException("reply budget: share " + share + ", shared " + shared
          + ", per connection " + perConnection);
    }
    this.perConnection = perConnection;
    this.share = share;
    this.shared = shared;
    this.stats = stats;
  }

  /** The budget of {@code limits}. */
  ReplyBudget(FeedLimits limits, FeedStats stats) {
    this(limits.replyBytesPerConnection(), limits.replyShareBytes(), limits.replySharedBytes(),
        stats);
  }

  /** Bytes {@code a} could have handed over now (lock held). */
  private long room(Account a) {
    long own = Math.max(0, share - a.unsent);
    return Math.min(perConnection - a.unsent, own + (shared - sharedUsed));
  }

  private static long beyond(long unsent, long share) {
    return Math.max(0, unsent - share);
  }

  /**
   * A new connection's account; {@code onWait} runs (under the budget's lock, so it must only
   * schedule work) each time the connection starts waiting for room.
   */
  Account open(Runnable onWait) {
    return new Account(onWait);
  }

  /**
   * Waits until room for {@code bytes} more is free in the connection's and the server's bounds,
   * or until the connection has nothing unsent (then its own share at least is free), then counts
   * the bytes granted as unsent and returns how many they are: {@code bytes}, or fewer (at least
   * one) when the chunk is bigger than what is free for the connection; the caller hands over
   * that many and reserves again for the rest. Returns 0, reserving nothing, if the account or the
   * budget is closed first (or the thread is interrupted): the caller drops the bytes.
   *
   * @param bytes at least 1, at most the per-connection bound
   */
  int reserve(Account a, int bytes) {
    if (bytes < 1 || bytes > perConnection) {
      throw new IllegalArgumentException("a reply chunk of " + bytes + " bytes; allowed: 1 to "
          + perConnection);
    }
    lock.lock();
    boolean waited = false;
    try {
      long grant;
      while (true) {
        if (a.closed || closed) {
          return 0;
        }
        long free = room(a);
        // All of it, or, when the connection has nothing unsent, what is free: at least its
        // own share. So a client that reads always gets on, and one that does not waits for
        // room for whole chunks instead of taking crumbs.
        if (free >= bytes || a.unsent == 0) {
          grant = Math.min(bytes, free);
          break;
        }
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
          return 0;
        }
      }
      long before = a.unsent;
      a.unsent += grant;
      sharedUsed += beyond(a.unsent, share) - beyond(before, share);
      unsent += grant;
      stats.unsentReplyBytes.set(unsent);
      stats.maxUnsentReplyBytes.accumulateAndGet(unsent, Math::max);
      stats.maxConnectionUnsentReplyBytes.accumulateAndGet(a.unsent, Math::max);
      return (int) grant;
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
      long before = a.unsent;
      a.unsent -= bytes;
      sharedUsed -= beyond(before, share) - beyond(a.unsent, share);
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
