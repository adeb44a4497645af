package org.strata.ycsb.twophase;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.consumer.RecordingStream;

/**
 * G1's Remark and Cleanup pauses, the two stops of a concurrent marking cycle, read from JFR's
 * {@code jdk.GCPhasePause} events and given to a {@link GcPauseRecorder}. Before JDK 20 no
 * collector bean reports them ({@code G1 Concurrent GC} is new in 20), so on JDK 17 a phase in
 * which a concurrent cycle ran would otherwise miss a pause that can be its longest (a Remark of
 * 5.6-6.8 ms in the 1,800 s runs of docs/performance.md, where the young pauses stayed under 5).
 *
 * <p>JFR hands events to the stream in batches, about once a second. {@link #awaitDelivery}
 * commits a marker event and waits, signalled and bounded, until the batch holding it has been
 * dispatched: every pause that ended before the marker was committed has then reached the
 * recorder, so a phase that ends sees all of its pauses.
 */
final class G1ConcurrentPauses implements AutoCloseable {
  /** The name the recorder reports these pauses under. */
  static final String COLLECTOR = "G1 Remark and Cleanup (JFR)";
  private static final Set<String> PAUSES = Set.of("Pause Remark", "Pause Cleanup");
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

  private G1ConcurrentPauses(GcPauseRecorder sink) {
    stream = new RecordingStream();
    stream.enable("jdk.GCPhasePause").withThreshold(Duration.ZERO);
    stream.enable(DeliveryMark.class);
    stream.onEvent("jdk.GCPhasePause", e -> {
      if (PAUSES.contains(e.getString("name"))) {
        sink.onTimedPause(COLLECTOR, e.getStartTime(), e.getDuration());
      }
    });
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
   * True if this JVM's collector beans (by name) leave G1's Remark and Cleanup pauses unreported:
   * G1 runs and there is no {@code G1 Concurrent GC} bean.
   */
  static boolean needed(List<String> collectorNames) {
    return collectorNames.contains("G1 Young Generation")
        && !collectorNames.contains("G1 Concurrent GC");
  }

  /**
   * Starts reading the pauses into {@code sink}, or returns null, with a warning on standard
   * error, if this JVM cannot record JFR events (then those pauses go uncounted, as before).
   */
  static G1ConcurrentPauses start(GcPauseRecorder sink) {
    try {
      return new G1ConcurrentPauses(sink);
    } catch (RuntimeException | LinkageError e) {
      System.err.println("gc: cannot read G1's Remark and Cleanup pauses from JFR (" + e
          + "); the phases' pause figures leave them out");
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
