package org.strata.twophase;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The testing phase's closed system (Luo & Carey 3.2): each writer submits its next write as soon
 * as the previous one returns, so the store's processing rate sets the arrival rate.
 */
final class ClosedLoopDriver {
  private final int writers;
  private final WriteTarget target;
  private final AtomicLong completed = new AtomicLong();

  ClosedLoopDriver(int writers, WriteTarget target) {
    this.writers = writers;
    this.target = target;
  }

  /** Writes completed so far. */
  long completed() {
    return completed.get();
  }

  /** Runs the writers for {@code durationNanos}; rethrows the first write failure. */
  void run(long durationNanos) throws Exception {
    long end = System.nanoTime() + durationNanos;
    AtomicReference<Exception> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      Thread t = new Thread(() -> {
        try {
          while (System.nanoTime() < end && failure.get() == null) {
            target.write();
            completed.incrementAndGet();
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }, "strata-testing-writer-" + i);
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }
}
