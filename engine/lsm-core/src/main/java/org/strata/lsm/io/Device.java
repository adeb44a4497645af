package org.strata.lsm.io;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The storage device a store runs on, as a model ({@code config/DeviceConfig}, which opens it):
 * every byte written costs {@code 1 / write-bandwidth} seconds of device time, every byte read
 * {@code 1 / read-bandwidth}, every force {@code force-latency-ms}. The device is one server: its
 * time is a bucket that fills at one second per second (on the injected {@link Clock}) up to a
 * burst of {@value #BURST_MILLIS} ms, a request waits until the bucket holds its cost (a request
 * costlier than the burst waits for a full bucket and leaves it in debt), so over any window of
 * length W the device serves at most W plus the burst of work, whoever asks. Requests of a merge
 * ({@link IoClass#MERGE}) step aside while a flush's or a foreground request waits. The same bytes
 * always cost the same time: the model is deterministic, whatever the machine's own disk does.
 *
 * <p>Locks: {@code lock} (fair: waiters are served in arrival order) guards the bucket; counters
 * are atomic and read without it.
 */
public final class Device {
  /** The most device time an idle device saves up, in milliseconds. */
  public static final long BURST_MILLIS = 10;

  private final String name;
  private final Clock clock;
  private final double nanosPerWrittenByte;
  private final double nanosPerReadByte;
  private final long forceNanos;
  private final double burstNanos = BURST_MILLIS * 1e6;
  private final ReentrantLock lock = new ReentrantLock(true);
  private final Condition priorityGone = lock.newCondition();
  // Guarded by lock.
  private double credit;
  private long lastRefill;
  private int priorityWaiters;
  private final AtomicLongArray written = new AtomicLongArray(3);
  private final AtomicLongArray read = new AtomicLongArray(3);
  private final AtomicLongArray forces = new AtomicLongArray(3);
  private final AtomicLongArray busy = new AtomicLongArray(3);
  private final AtomicLongArray waited = new AtomicLongArray(3);

  /**
   * A device timed on {@code clock}.
   *
   * @param name a label for reports
   * @param writeBytesPerSecond bytes written per second of device time
   * @param readBytesPerSecond bytes read per second of device time
   * @param forceLatencyMs milliseconds of device time a force takes
   */
  public Device(String name, long writeBytesPerSecond, long readBytesPerSecond,
      double forceLatencyMs, Clock clock) {
    this.name = name;
    this.clock = clock;
    this.nanosPerWrittenByte = 1e9 / writeBytesPerSecond;
    this.nanosPerReadByte = 1e9 / readBytesPerSecond;
    this.forceNanos = Math.round(forceLatencyMs * 1e6);
    this.credit = burstNanos;
    this.lastRefill = clock.nanoTime();
  }

  /** The device's label. */
  public String name() {
    return name;
  }

  /** Charges a write of {@code bytes} by the current thread's class; waits for the device. */
  public void write(long bytes) throws InterruptedException {
    if (bytes <= 0) {
      return;
    }
    IoClass c = IoClass.current();
    written.addAndGet(c.ordinal(), bytes);
    charge(c, bytes * nanosPerWrittenByte);
  }

  /** Charges a read of {@code bytes} by the current thread's class; waits for the device. */
  public void read(long bytes) throws InterruptedException {
    if (bytes <= 0) {
      return;
    }
    IoClass c = IoClass.current();
    read.addAndGet(c.ordinal(), bytes);
    charge(c, bytes * nanosPerReadByte);
  }

  /** Charges a force by the current thread's class; waits for the device. */
  public void force() throws InterruptedException {
    IoClass c = IoClass.current();
    forces.incrementAndGet(c.ordinal());
    if (forceNanos > 0) {
      charge(c, forceNanos);
    }
  }

  private void charge(IoClass c, double cost) throws InterruptedException {
    busy.addAndGet(c.ordinal(), Math.round(cost));
    long start = clock.nanoTime();
    lock.lockInterruptibly();
    try {
      boolean priority = c.priority();
      if (priority) {
        priorityWaiters++;
      } else {
        while (priorityWaiters > 0) {
          priorityGone.await(); // signalled when the last priority waiter is served
        }
      }
      try {
        refill();
        double need = Math.min(cost, burstNanos);
        while (credit < need) {
          clock.sleepNanos(Math.max(1000, (long) Math.ceil(need - credit)));
          refill();
        }
        credit -= cost;
      } finally {
        if (priority && --priorityWaiters == 0) {
          priorityGone.signalAll();
        }
      }
    } finally {
      lock.unlock();
    }
    waited.addAndGet(c.ordinal(), Math.max(0, clock.nanoTime() - start));
  }

  // Must hold lock.
  private void refill() {
    assert lock.isHeldByCurrentThread() : "caller holds the device's lock";
    long now = clock.nanoTime();
    long elapsed = now - lastRefill;
    if (elapsed > 0) {
      credit = Math.min(burstNanos, credit + elapsed);
      lastRefill = now;
    }
  }

  /** What the device served so far. */
  public DeviceCounters counters() {
    return new DeviceCounters(name, toArray(written), toArray(read), toArray(forces),
        toArray(busy), toArray(waited));
  }

  private static long[] toArray(AtomicLongArray a) {
    long[] r = new long[a.length()];
    for (int i = 0; i < r.length; i++) {
      r[i] = a.get(i);
    }
    return r;
  }
}
