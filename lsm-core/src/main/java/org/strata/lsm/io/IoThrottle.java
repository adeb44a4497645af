package org.strata.lsm.io;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A token bucket over bytes that every flush and merge of a store writes through, so their
 * aggregate write rate stays at or below {@code bytesPerSecond}. Callers acquire before each write;
 * acquiring blocks (sleeps on the injected {@link Clock}) until enough tokens have accrued.
 *
 * <p>The bucket holds at most {@code burstBytes} (by default a tenth of a second of budget, at least
 * 64 KB), so over any window of length W the bytes admitted are at most {@code rate * W + burst}.
 * Waiters are served in arrival order through a fair lock, so concurrent merges writing equal
 * chunks share the budget evenly (work-conserving: a merge that asks for less leaves the rest to
 * the others). Priority acquisitions (flushes) go ahead of ordinary ones (merges): a merge steps
 * aside while a flush waits. A rate of 0 means unlimited.
 */
public final class IoThrottle {
  private final Clock clock;
  private final long bytesPerSecond;
  private final double burstBytes;
  private final ReentrantLock lock = new ReentrantLock(true);
  private final Condition priorityGone = lock.newCondition();
  private double tokens;
  private long lastRefillNanos;
  private int priorityWaiters;
  private final AtomicLong totalBytes = new AtomicLong();

  /**
   * @param bytesPerSecond the budget; 0 disables throttling
   * @param clock the time source
   */
  public IoThrottle(long bytesPerSecond, Clock clock) {
    this(bytesPerSecond, Math.max(64 * 1024, bytesPerSecond / 10), clock);
  }

  /** A throttle with an explicit burst size in bytes. */
  public IoThrottle(long bytesPerSecond, long burstBytes, Clock clock) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond must be >= 0, got " + bytesPerSecond);
    }
    if (burstBytes <= 0) {
      throw new IllegalArgumentException("burstBytes must be > 0, got " + burstBytes);
    }
    this.clock = clock;
    this.bytesPerSecond = bytesPerSecond;
    this.burstBytes = burstBytes;
    this.tokens = burstBytes;
    this.lastRefillNanos = clock.nanoTime();
  }

  /** An unlimited throttle that only counts bytes. */
  public static IoThrottle unlimited() {
    return new IoThrottle(0, Clock.system());
  }

  /** The configured rate in bytes per second, 0 when unlimited. */
  public long bytesPerSecond() {
    return bytesPerSecond;
  }

  /** Bytes admitted so far. */
  public long totalBytes() {
    return totalBytes.get();
  }

  /** Blocks until {@code bytes} may be written, at ordinary (merge) priority. */
  public void acquire(long bytes) throws InterruptedException {
    acquire(bytes, false);
  }

  /**
   * Blocks until {@code bytes} may be written. A request larger than the burst is admitted once the
   * bucket is full and leaves it in debt, so large requests still respect the long-run rate.
   *
   * @param priority true for flushes, which go ahead of merges
   */
  public void acquire(long bytes, boolean priority) throws InterruptedException {
    if (bytes <= 0) {
      return;
    }
    if (bytesPerSecond == 0) {
      totalBytes.addAndGet(bytes);
      return;
    }
    lock.lockInterruptibly();
    try {
      if (priority) {
        priorityWaiters++;
      } else {
        while (priorityWaiters > 0) {
          priorityGone.await(); // signalled when the last priority waiter is served
        }
      }
      try {
        refill();
        double need = Math.min(bytes, burstBytes);
        while (tokens < need) {
          long waitNanos = (long) Math.ceil((need - tokens) * 1e9 / bytesPerSecond);
          clock.sleepNanos(Math.max(waitNanos, 1000));
          refill();
        }
        tokens -= bytes;
        totalBytes.addAndGet(bytes);
      } finally {
        if (priority && --priorityWaiters == 0) {
          priorityGone.signalAll();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  private void refill() {
    long now = clock.nanoTime();
    long elapsed = now - lastRefillNanos;
    if (elapsed > 0) {
      tokens = Math.min(burstBytes, tokens + elapsed * (double) bytesPerSecond / 1e9);
      lastRefillNanos = now;
    }
  }
}
