package org.strata.twophase;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;
import org.strata.sim.des.ArrivalProcess;

/**
 * The running phase's open system (Luo & Carey 3.2; docs/papers/luo-carey.md#open-loop-driver):
 * one generator stamps each write
 * with its intended arrival time, computed from the arrival process and never delayed by the
 * writers, and puts it on an unbounded FIFO queue; writer threads take writes off the queue and
 * apply them. Write latency is completion minus intended arrival (queuing plus processing);
 * processing latency is completion minus dequeue; arrival lag is the generator's own lateness,
 * enqueue minus intended arrival. All three are recorded in microseconds. Arrival lag is part of
 * every write latency (the write arrived when intended, whether or not the generator ran then), so
 * it says how much of a latency spike the driver's thread could not have prevented: a lag as large
 * as the spike means the whole process (or the machine) stood still, not only the store.
 */
final class OpenLoopDriver {
  private final ArrivalProcess arrivals;
  private final int writers;
  private final WriteTarget target;
  private final Recorder writeLatency;
  private final Recorder processingLatency;
  private final Recorder arrivalLag;
  private final LinkedBlockingQueue<Long> queue = new LinkedBlockingQueue<>();
  private final AtomicLong arrived = new AtomicLong();
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong maxQueue = new AtomicLong();

  /**
   * What happened.
   *
   * @param arrived writes that arrived before the end of the phase
   * @param completed writes applied (including during the drain)
   * @param unfinished writes still queued when the drain ended; not in the latency histograms
   * @param maxQueue longest queue seen
   * @param queueAtEnd writes queued when the arrivals stopped (before the drain)
   */
  record Result(long arrived, long completed, long unfinished, long maxQueue, long queueAtEnd) {}

  OpenLoopDriver(ArrivalProcess arrivals, int writers, WriteTarget target, Recorder writeLatency,
      Recorder processingLatency, Recorder arrivalLag) {
    this.arrivals = arrivals;
    this.writers = writers;
    this.target = target;
    this.writeLatency = writeLatency;
    this.processingLatency = processingLatency;
    this.arrivalLag = arrivalLag;
  }

  long arrived() {
    return arrived.get();
  }

  long completed() {
    return completed.get();
  }

  int queueLength() {
    return queue.size();
  }

  /**
   * Generates arrivals for {@code durationNanos}, then lets the writers drain the queue for at
   * most {@code drainNanos}; rethrows the first write failure.
   */
  Result run(long durationNanos, long drainNanos) throws Exception {
    long start = System.nanoTime();
    long end = start + durationNanos;
    AtomicBoolean generating = new AtomicBoolean(true);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Exception> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      Thread t = new Thread(() -> {
        try {
          while (!stop.get() && failure.get() == null) {
            Long intended = queue.poll(50, TimeUnit.MILLISECONDS);
            if (intended == null) {
              if (!generating.get()) {
                return;
              }
              continue;
            }
            long dequeued = System.nanoTime();
            target.write();
            long done = System.nanoTime();
            writeLatency.recordValue(Math.max(0, (done - intended) / 1000));
            processingLatency.recordValue(Math.max(0, (done - dequeued) / 1000));
            completed.incrementAndGet();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }, "strata-running-writer-" + i);
      t.start();
      threads.add(t);
    }
    try {
      while (failure.get() == null) {
        long intended = start + (long) (arrivals.next() * 1e9);
        if (intended >= end) {
          break;
        }
        long wait = intended - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
        queue.add(intended);
        arrivalLag.recordValue(Math.max(0, (System.nanoTime() - intended) / 1000));
        arrived.incrementAndGet();
        maxQueue.accumulateAndGet(queue.size(), Math::max);
      }
      long now = System.nanoTime();
      if (now < end) {
        LockSupport.parkNanos(end - now);
      }
    } finally {
      generating.set(false);
    }
    long queueAtEnd = queue.size();
    long drainEnd = System.nanoTime() + drainNanos;
    while (!queue.isEmpty() && System.nanoTime() < drainEnd && failure.get() == null) {
      Thread.sleep(20);
    }
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return new Result(arrived.get(), completed.get(), queue.size(), maxQueue.get(), queueAtEnd);
  }
}
