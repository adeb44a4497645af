package org.strata.ycsb.twophase;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.HdrHistogram.Histogram;

/**
 * Records the JVM's collector pauses and peak heap, one phase at a time, from the platform's
 * collection notifications ({@link GarbageCollectionNotificationInfo} on each {@link
 * GarbageCollectorMXBean}).
 *
 * <p>Which collectors pause: every collector bean counts as stop-the-world except those whose
 * name ends in {@code " Cycles"} ({@code ZGC Cycles}, {@code ZGC Major Cycles}, {@code ZGC Minor
 * Cycles}, {@code Shenandoah Cycles}), which report whole concurrent cycles while the
 * application runs; their pauses come through {@code ZGC Pauses}, {@code ZGC Major Pauses} and
 * {@code Shenandoah Pauses}. G1's {@code G1 Young Generation} and {@code G1 Old Generation}
 * (full collections) pause; on JDK 20 and later {@code G1 Concurrent GC} reports G1's Remark and
 * Cleanup pauses, which JDK 17 reports through no bean at all: there {@link #platform()} reads them
 * from JFR (reported as {@code G1 Remark and Cleanup (JFR)}) and counts each in the phase it began
 * in. Parallel and Serial collectors pause for every collection.
 *
 * <p>Every notification, pausing or not, also gives the heap used just before the collection
 * (summed over the heap's memory pools) to a {@link HeapPeak}.
 */
public final class GcPauseRecorder implements AutoCloseable {
  private final Set<String> heapPools;
  private final LongSupplier heapUsedNow;
  private final long maxHeapBytes;
  private final HeapPeak heap = new HeapPeak();
  private final List<Runnable> unsubscribe = new ArrayList<>();
  private final Histogram pauses = new Histogram(3);
  private final Set<String> pausing = new TreeSet<>();
  private long totalMillis;
  private final Clock clock;
  private Instant phaseStart;
  /** Pauses known by when they began ({@link #onTimedPause}), not yet given to a phase. */
  private final List<TimedPause> timed = new ArrayList<>();
  /** G1's Remark and Cleanup pauses from JFR, or null. */
  private G1ConcurrentPauses concurrent;

  private record TimedPause(String collector, Instant start, Duration duration) {}

  /**
   * A recorder fed by {@link #onCollection} (tests feed it synthetic collections).
   *
   * @param heapPools names of the heap's memory pools (their before-collection use is summed)
   * @param heapUsedNow the heap used now, read at the start and end of each phase
   * @param maxHeapBytes the JVM's maximum heap, for reports
   */
  public GcPauseRecorder(Set<String> heapPools, LongSupplier heapUsedNow, long maxHeapBytes) {
    this(heapPools, heapUsedNow, maxHeapBytes, Clock.systemUTC());
  }

  /**
   * As above, with the clock that bounds the phases for {@link #onTimedPause} (JFR stamps its
   * events with the wall clock, which the platform recorder uses).
   */
  public GcPauseRecorder(Set<String> heapPools, LongSupplier heapUsedNow, long maxHeapBytes,
      Clock clock) {
    this.heapPools = Set.copyOf(heapPools);
    this.heapUsedNow = heapUsedNow;
    this.maxHeapBytes = maxHeapBytes;
    this.clock = clock;
    this.phaseStart = clock.instant();
    heap.reset(heapUsedNow.getAsLong());
  }

  /** A recorder listening to this JVM's collectors until closed. */
  public static GcPauseRecorder platform() {
    Set<String> pools = new TreeSet<>();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        pools.add(p.getName());
      }
    }
    GcPauseRecorder r = new GcPauseRecorder(pools,
        () -> ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
        Runtime.getRuntime().maxMemory());
    NotificationListener listener = (n, handback) -> {
      if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
        GarbageCollectionNotificationInfo i =
            GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        r.onCollection(i.getGcName(), i.getGcInfo().getDuration(),
            i.getGcInfo().getMemoryUsageBeforeGc());
      }
    };
    if (G1ConcurrentPauses.needed(collectorNames())) {
      r.concurrent = G1ConcurrentPauses.start(r);
    }
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (b instanceof NotificationEmitter e) {
        e.addNotificationListener(listener, null, null);
        r.unsubscribe.add(() -> {
          try {
            e.removeNotificationListener(listener);
          } catch (ListenerNotFoundException ignored) {
            // already gone
          }
        });
      }
    }
    return r;
  }

  /** The names of this JVM's collectors, for reports. */
  public static List<String> collectorNames() {
    List<String> names = new ArrayList<>();
    ManagementFactory.getGarbageCollectorMXBeans().forEach(b -> names.add(b.getName()));
    return names;
  }

  /** True if a collector of this name stops the application (the rule in the class comment). */
  public static boolean isPauseCollector(String collectorName) {
    return !collectorName.endsWith(" Cycles");
  }

  /**
   * One collection: a pause of {@code durationMillis} if the collector pauses, and the heap used
   * before it.
   *
   * @param before memory use before the collection by pool name (non-heap pools are ignored)
   */
  public void onCollection(String collector, long durationMillis,
      Map<String, MemoryUsage> before) {
    long used = 0;
    for (Map.Entry<String, MemoryUsage> e : before.entrySet()) {
      if (heapPools.contains(e.getKey())) {
        used += e.getValue().getUsed();
      }
    }
    heap.observe(used);
    if (isPauseCollector(collector)) {
      synchronized (this) {
        record(collector, durationMillis);
      }
    }
  }

  /**
   * A pause reported late, by when it began (G1's Remark and Cleanup from JFR): it counts in the
   * phase during which it began, once that phase ends, and in none if it began between phases.
   * Its duration counts in whole milliseconds, truncated, as the collector beans report theirs.
   */
  public synchronized void onTimedPause(String collector, Instant start, Duration duration) {
    timed.add(new TimedPause(collector, start, duration));
  }

  private void record(String collector, long durationMillis) {
    pauses.recordValue(Math.max(0, durationMillis));
    totalMillis += Math.max(0, durationMillis);
    pausing.add(collector);
  }

  /** Starts a phase: forgets earlier pauses and resets the peak to the heap used now. */
  public synchronized void startPhase() {
    pauses.reset();
    totalMillis = 0;
    pausing.clear();
    phaseStart = clock.instant();
    timed.removeIf(p -> p.start().isBefore(phaseStart));
    heap.reset(heapUsedNow.getAsLong());
  }

  /**
   * Ends a phase: its pauses and peak heap (the heap used now counts towards the peak). With JFR
   * reading G1's Remark and Cleanup pauses, first waits (at most {@value #DELIVERY_BOUND_SECONDS}
   * s, about one second as a rule) until those that began before now have arrived.
   */
  public GcPhase endPhase() {
    Instant end = clock.instant();
    if (concurrent != null) {
      awaitConcurrentPauses();
    }
    synchronized (this) {
      for (var it = timed.iterator(); it.hasNext(); ) {
        TimedPause p = it.next();
        if (p.start().isBefore(end)) {
          if (!p.start().isBefore(phaseStart)) {
            record(p.collector(), p.duration().toMillis());
          }
          it.remove();
        }
      }
      heap.observe(heapUsedNow.getAsLong());
      long n = pauses.getTotalCount();
      return new GcPhase(new ArrayList<>(pausing), n,
          n == 0 ? 0 : pauses.getValueAtPercentile(50),
          n == 0 ? 0 : pauses.getValueAtPercentile(99),
          n == 0 ? 0 : pauses.getMaxValue(), totalMillis, heap.peak(), maxHeapBytes);
    }
  }

  /** How long {@link #endPhase} waits for JFR to deliver G1's Remark and Cleanup pauses. */
  static final long DELIVERY_BOUND_SECONDS = 30;

  private void awaitConcurrentPauses() {
    boolean delivered;
    try {
      delivered = concurrent.awaitDelivery(Duration.ofSeconds(DELIVERY_BOUND_SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      delivered = false;
    }
    if (!delivered) {
      System.err.println("gc: JFR did not deliver G1's Remark and Cleanup pauses within "
          + DELIVERY_BOUND_SECONDS + " s of the phase's end; the phase's pause figures may miss"
          + " some of them");
    }
  }

  /** Stops listening (a no-op for a recorder fed by hand). */
  @Override
  public void close() {
    unsubscribe.forEach(Runnable::run);
    unsubscribe.clear();
    if (concurrent != null) {
      concurrent.close();
      concurrent = null;
    }
  }
}
