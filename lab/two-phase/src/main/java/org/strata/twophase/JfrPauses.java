package org.strata.twophase;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.consumer.RecordingStream;

/**
 * Every stop-the-world pause of this JVM's collector, read from JFR's {@code jdk.GCPhasePause}
 * events (the whole pauses; JFR's per-step events are other types) and given to a {@link
 * GcPauseRecorder} by when it began, to the nanosecond, under the pause's JFR name: {@code GC
 * Pause} (a young, mixed or full collection of G1, Parallel or Serial), {@code Pause Remark} and
 * {@code Pause Cleanup} (G1's concurrent cycle), {@code Pause Mark Start}, {@code Pause Mark End}
 * and {@code Pause Relocate Start} (ZGC), {@code Pause Init Mark ...} and the like (Shenandoah).
 *
 * <p>Why JFR and not the collector beans: the beans report whole milliseconds, so a ZGC pause of
 * 0.09 ms counts as 0 and a G1 pause of 5.9 ms as 5; on JDK 17 no bean reports G1's Remark and
 * Cleanup pauses ({@code G1 Concurrent GC} is new in 20), which were the longest pauses of the
 * 1,800 s runs in docs/performance-journal.md; and a bean's notification arrives on its own thread
 * after the collection, so a pause near a phase's end could count in the next phase or in none.
 *
 * <p>JFR hands events to the stream in batches, about once a second. {@link #awaitDelivery}
 * commits a marker event and waits, signalled and bounded, until the batch holding it has been
 * dispatched: every pause that ended before the marker was committed has then reached the
 * recorder, so a phase that ends sees all of its pauses.
 */
final class JfrPauses implements AutoCloseable {
  private static final String MARK = "org.strata.twophase.DeliveryMark";

  /** The marker committed by {@link #awaitDelivery}; carries the number it waits for. */
  @Name(MARK)
  @Label("Two-phase pause delivery mark")
  @Category("Strata")
  static final class DeliveryMark extends Event {
    @Label("Mark")
    long mark;
  }

  private final RecordingStream stream;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition delivered = lock.newCondition();
  /** The last marker seen in the batch being dispatched. */
  private long seen;
  /** The last marker whose batch has been dispatched completely. */
  private long dispatched;
  private long committed;

  private JfrPauses(GcPauseRecorder sink) {
    stream = new RecordingStream();
    stream.enable("jdk.GCPhasePause").withThreshold(Duration.ZERO);
    stream.enable(DeliveryMark.class);
    stream.onEvent("jdk.GCPhasePause",
        e -> sink.onTimedPause(e.getString("name"), e.getStartTime(), e.getDuration()));
    stream.onEvent(MARK, e -> {
      lock.lock();
      try {
        seen = Math.max(seen, e.getLong("mark"));
      } finally {
        lock.unlock();
      }
    });
    stream.onFlush(() -> {
      lock.lock();
      try {
        dispatched = seen;
        delivered.signalAll();
      } finally {
        lock.unlock();
      }
    });
    stream.startAsync();
  }

  /**
   * Starts reading the pauses into {@code sink}, or returns null, with a warning on standard
   * error, if this JVM cannot record JFR events (the recorder then counts the collector beans'
   * pauses, in whole milliseconds).
   */
  static JfrPauses start(GcPauseRecorder sink) {
    try {
      return new JfrPauses(sink);
    } catch (RuntimeException | LinkageError e) {
      System.err.println("gc: cannot read the collector's pauses from JFR (" + e + "); the"
          + " pause figures come from the collector beans instead: whole milliseconds, and on"
          + " JDK 17 without G1's Remark and Cleanup pauses");
      return null;
    }
  }

  /**
   * Waits until every pause that ended before this call has reached the recorder, at most
   * {@code bound}; false if the bound passed first.
   */
  boolean awaitDelivery(Duration bound) throws InterruptedException {
    long mark;
    lock.lock();
    try {
      mark = ++committed;
    } finally {
      lock.unlock();
    }
    DeliveryMark m = new DeliveryMark();
    m.mark = mark;
    m.commit();
    long left = bound.toNanos();
    lock.lock();
    try {
      while (dispatched < mark) {
        if (left <= 0) {
          return false;
        }
        left = delivered.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    stream.close();
  }
}
