package org.strata.lsm.io;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.strata.lsm.events.ThrottleWaitEvent;

/**
 * A token bucket over bytes that every flush and merge of a store writes through, so their
 * aggregate write rate stays at or below {@code bytesPerSecond}. Callers acquire before each write;
 * acquiring blocks (sleeps on the injected {@link Clock}) until enough tokens have accrued.
 *
 * <p>The bucket holds at most {@code burstBytes} (by default a tenth of a second of budget, at
 * least 64 KB), so over any window of length W the bytes admitted are at most {@code rate * W +
 * burst}. Waiters are served in arrival order through a fair lock, so concurrent merges writing
 * equal chunks share the budget evenly (work-conserving: a merge that asks for less leaves the rest
 * to the others). Priority acquisitions (flushes) go ahead of ordinary ones (merges): a merge steps
 * aside while a flush waits. A rate of 0 means unlimited.
 *
 * <p>It also keeps {@link IoBudgetCounters}: where the budget went. Writers of components say when
 * they start and end ({@link #operationStarted()}, {@link #operationEnded()}) and how long their
 * forces took ({@link #forced}), so budget that overflows a full bucket can be told apart as idle
 * (no component being written) or busy (a writer was doing something other than asking).
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
  private final AtomicLong priorityBytes = new AtomicLong();
  private final AtomicLong ordinaryBytes = new AtomicLong();
  private int openOperations; // guarded by lock
  private long sleptNanos; // guarded by lock
  private long discardedIdle; // guarded by lock
  private long discardedBusy; // guarded by lock
  private final AtomicLong flushForces = new AtomicLong();
  private final AtomicLong flushForceNanos = new AtomicLong();
  private final AtomicLong mergeForces = new AtomicLong();
  private final AtomicLong mergeForceNanos = new AtomicLong();

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
    return priorityBytes.get() + ordinaryBytes.get();
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
      admitted(bytes, priority);
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
        ThrottleWaitEvent event = null;
        if (tokens < need) {
          event = new ThrottleWaitEvent();
          event.begin();
        }
        while (tokens < need) {
          long waitNanos = (long) Math.ceil((need - tokens) * 1e9 / bytesPerSecond);
          long sleepStart = clock.nanoTime();
          clock.sleepNanos(Math.max(waitNanos, 1000));
          sleptNanos += Math.max(0, clock.nanoTime() - sleepStart);
          refill();
        }
        tokens -= bytes;
        admitted(bytes, priority);
        if (event != null && event.shouldCommit()) {
          event.bytes = bytes;
          event.flush = priority;
          event.bytesPerSecond = bytesPerSecond;
          event.commit();
        }
      } finally {
        if (priority && --priorityWaiters == 0) {
          priorityGone.signalAll();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  private void admitted(long bytes, boolean priority) {
    (priority ? priorityBytes : ordinaryBytes).addAndGet(bytes);
  }

  /**
   * A flush or merge starts writing a component through this throttle. Balanced by {@link
   * #operationEnded()}; only used to attribute discarded budget.
   */
  public void operationStarted() {
    operationChanged(1);
  }

  /** The flush or merge that called {@link #operationStarted()} finished or gave up. */
  public void operationEnded() {
    operationChanged(-1);
  }

  private void operationChanged(int delta) {
    if (bytesPerSecond == 0) {
      return;
    }
    lock.lock();
    try {
      refill(); // what accrued so far is attributed to the state before the change
      openOperations += delta;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Forces {@code file}, a component being written by a flush ({@code priority}) or a merge, and
   * counts the time the caller was blocked in it.
   */
  public void force(WritableFile file, boolean priority) throws IOException {
    long start = clock.nanoTime();
    try {
      file.force();
    } finally {
      forced(clock.nanoTime() - start, priority);
    }
  }

  /**
   * Counts a force of a component file that blocked its writer for {@code nanos}.
   *
   * @param priority true for a flush's file, false for a merge's
   */
  public void forced(long nanos, boolean priority) {
    (priority ? flushForces : mergeForces).incrementAndGet();
    (priority ? flushForceNanos : mergeForceNanos).addAndGet(Math.max(0, nanos));
  }

  /** Where the budget went so far; the discarded budget is brought up to date first. */
  public IoBudgetCounters counters() {
    long wait;
    long idle;
    long busy;
    lock.lock();
    try {
      if (bytesPerSecond > 0) {
        refill();
      }
      wait = sleptNanos;
      idle = discardedIdle;
      busy = discardedBusy;
    } finally {
      lock.unlock();
    }
    return new IoBudgetCounters(priorityBytes.get(), ordinaryBytes.get(), wait, idle, busy,
        flushForces.get(), flushForceNanos.get(), mergeForces.get(), mergeForceNanos.get());
  }

  private void refill() {
    long now = clock.nanoTime();
    long elapsed = now - lastRefillNanos;
    if (elapsed > 0) {
      double filled = tokens + elapsed * (double) bytesPerSecond / 1e9;
      if (filled > burstBytes) {
        long overflow = (long) (filled - burstBytes);
        if (openOperations > 0) {
          discardedBusy += overflow;
        } else {
          discardedIdle += overflow;
        }
        filled = burstBytes;
      }
      tokens = filled;
      lastRefillNanos = now;
    }
  }
}
