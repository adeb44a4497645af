package org.strata.lsm.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one thread that runs the flushes of a tree group: the indexes of a dataset partition
 * ({@link TreeGroup}), or a standalone index, which is a group of one. A {@link Flusher} with
 * sealed memory components queues itself; the thread takes the trees in turn, one flush each, so
 * the trees of a partition, sealed together, are flushed in seal order.
 *
 * <p>Why one executor per group, and not one thread per tree or flushes through the merge
 * scheduler: the trees of a partition are sealed together and share one I/O throttle in which
 * flushes go first, so flushing them in parallel only splits the same byte budget while holding
 * more memory components at once; the shared log can drop a segment only when every tree has
 * flushed past it, which flushing in seal order reaches soonest; and a partition of many indexes
 * needs one thread, not one per index. The merge scheduler is not used because it is a policy
 * choice that may run one operation at a time, pause or defer it (Luo and Carey's schedulers): a
 * flush queued behind a long merge would stall writes, and a flush must never be paused.
 *
 * <p>Waits are signalled: the thread sleeps on {@code work} until a flusher is queued or the
 * executor stops. An {@link Error} thrown by a flush ends the thread; its uncaught-exception
 * handler makes it the sticky background error of every tree of the group, so writers fail
 * instead of waiting for flushes that will not come.
 */
final class FlushExecutor {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition work = lock.newCondition();
  private final Thread thread;
  // Guarded by lock.
  @GuardedBy("lock")
  private final ArrayDeque<Flusher> queue = new ArrayDeque<>();
  @GuardedBy("lock")
  private final List<Flusher> flushers = new ArrayList<>();
  @GuardedBy("lock")
  private boolean stop;
  @GuardedBy("lock")
  private boolean started;

  /** @param name names the thread ({@code strata-flush-<name>}) */
  FlushExecutor(String name) {
    this.thread = new org.strata.lsm.io.IoThread(this::loop, "strata-flush-" + name,
        org.strata.lsm.io.IoClass.FLUSH);
    this.thread.setDaemon(true);
    this.thread.setUncaughtExceptionHandler((t, e) -> died(e));
  }

  /** Adds a tree's flusher (before it is first queued). */
  void register(Flusher f) {
    lock.lock();
    try {
      flushers.add(f);
    } finally {
      lock.unlock();
    }
  }

  /** Starts the thread (once). */
  void start() {
    lock.lock();
    try {
      if (started) {
        return;
      }
      started = true;
    } finally {
      lock.unlock();
    }
    thread.start();
  }

  /** Queues {@code f} for a flush unless it is queued already. */
  void submit(Flusher f) {
    lock.lock();
    try {
      if (!queue.contains(f)) {
        queue.addLast(f);
        work.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops the thread once the queued flushers have nothing left that they may flush, and waits
   * for it.
   */
  void stop() {
    boolean join;
    lock.lock();
    try {
      stop = true;
      join = started;
      work.signal();
    } finally {
      lock.unlock();
    }
    if (join && Thread.currentThread() != thread) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void loop() {
    while (true) {
      Flusher next;
      lock.lock();
      try {
        while (queue.isEmpty() && !stop) {
          work.awaitUninterruptibly();
        }
        if (queue.isEmpty()) {
          return;
        }
        next = queue.pollFirst();
      } finally {
        lock.unlock();
      }
      if (next.flushNext()) {
        submit(next); // it may hold more sealed components; the others get their turn first
      }
    }
  }

  private void died(Throwable e) {
    List<Flusher> all;
    lock.lock();
    try {
      all = List.copyOf(flushers);
      queue.clear();
    } finally {
      lock.unlock();
    }
    for (Flusher f : all) {
      f.executorDied(e);
    }
  }
}
