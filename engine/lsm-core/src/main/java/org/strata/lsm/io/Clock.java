package org.strata.lsm.io;

/** A source of monotonic time, injectable so that tests and simulators control time. */
public interface Clock {
  /** Monotonic nanoseconds; only differences are meaningful. */
  long nanoTime();

  /** Wall-clock milliseconds since the epoch, for timestamps shown to users. */
  long currentTimeMillis();

  /** Blocks the caller for {@code nanos}; a virtual clock advances itself instead. */
  void sleepNanos(long nanos) throws InterruptedException;

  /** The real clock of the JVM. */
  static Clock system() {
    return SystemClock.INSTANCE;
  }
}
