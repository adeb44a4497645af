package org.strata.twophase;

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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Records the JVM's collector pauses and peak heap, one phase at a time.
 *
 * <p>Pauses: {@link #platform()} reads every stop-the-world pause from JFR ({@link JfrPauses}),
 * to the nanosecond, each counted in the phase during which it began and named as JFR names it
 * ({@code GC Pause}, {@code Pause Remark}, {@code Pause Mark Start}, ...). If this JVM cannot
 * record JFR events it counts the collector beans' pauses instead ({@link
 * GarbageCollectionNotificationInfo} on each {@link GarbageCollectorMXBean}, whole milliseconds,
 * named by the bean): every bean counts as stop-the-world except those whose name ends in {@code
 * " Cycles"} ({@code ZGC Cycles}, {@code ZGC Major Cycles}, {@code ZGC Minor Cycles}, {@code
 * Shenandoah Cycles}), which report whole concurrent cycles while the application runs (their
 * pauses come through {@code ZGC Pauses}, {@code ZGC Major Pauses} and {@code Shenandoah
 * Pauses}); on JDK 17 that fallback misses G1's Remark and Cleanup pauses, which no bean reports.
 *
 * <p>Heap: every bean notification, pausing or not, gives the heap used just before the
 * collection (summed over the heap's memory pools) to a {@link HeapPeak}.
 */
public final class GcPauseRecorder implements AutoCloseable {
  private final Set<String> heapPools;
  private final LongSupplier heapUsedNow;
  private final long maxHeapBytes;
  private final HeapPeak heap = new HeapPeak();
  private final List<Runnable> unsubscribe = new ArrayList<>();
  /** The phase's pause durations, ns, in the order counted. */
  private long[] pauseNanos = new long[64];
  private int pauseCount;
  private final Set<String> pauseKinds = new TreeSet<>();
  /** Whether the collector beans' notifications count as pauses (not when JFR reports them). */
  private boolean pausesFromBeans = true;
  private final Clock clock;
  private Instant phaseStart;
  /** Pauses known by when they began ({@link #onTimedPause}), not yet given to a phase. */
  private final List<TimedPause> timed = new ArrayList<>();
  /** Every pause from JFR, or null. */
  private JfrPauses jfr;

  private record TimedPause(String kind, Instant start, Duration duration) {}

  /**
   * A recorder fed by {@link #onCollection} and {@link #onTimedPause} (tests feed it synthetic
   * collections); the collections of pausing beans count as pauses.
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
    r.jfr = JfrPauses.start(r);
    r.pausesFromBeans = r.jfr == null;
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
   * One collection reported by a collector bean: the heap used before it, and a pause of {@code
   * durationMillis} if the collector pauses and the beans are the pause source.
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
        if (pausesFromBeans) {
          record(collector, durationMillis * 1_000_000L); // record clamps below 0
        }
      }
    }
  }

  /**
   * A pause reported by when it began (JFR's): it counts in the phase during which it began, once
   * that phase ends, and in none if it began between phases.
   */
  public synchronized void onTimedPause(String kind, Instant start, Duration duration) {
    timed.add(new TimedPause(kind, start, duration));
  }

  private void record(String kind, long nanos) {
    if (pauseCount == pauseNanos.length) {
      pauseNanos = Arrays.copyOf(pauseNanos, pauseCount * 2);
    }
    pauseNanos[pauseCount++] = Math.max(0, nanos);
    pauseKinds.add(kind);
  }

  /** Starts a phase: forgets earlier pauses and resets the peak to the heap used now. */
  public synchronized void startPhase() {
    pauseCount = 0;
    pauseKinds.clear();
    phaseStart = clock.instant();
    timed.removeIf(p -> p.start().isBefore(phaseStart));
    heap.reset(heapUsedNow.getAsLong());
  }

  /**
   * Ends a phase: its pauses and peak heap (the heap used now counts towards the peak). With JFR
   * reporting the pauses, first waits (at most {@value #DELIVERY_BOUND_SECONDS} s, about one
   * second as a rule) until those that began before now have arrived.
   */
  public GcPhase endPhase() {
    Instant end = clock.instant();
    if (jfr != null) {
      awaitJfrPauses();
    }
    synchronized (this) {
      for (var it = timed.iterator(); it.hasNext(); ) {
        TimedPause p = it.next();
        if (p.start().isBefore(end)) {
          if (!p.start().isBefore(phaseStart)) {
            record(p.kind(), p.duration().toNanos());
          }
          it.remove();
        }
      }
      heap.observe(heapUsedNow.getAsLong());
      long[] sorted = Arrays.copyOf(pauseNanos, pauseCount);
      Arrays.sort(sorted);
      long total = 0;
      for (long ns : sorted) {
        total += ns;
      }
      return new GcPhase(new ArrayList<>(pauseKinds), pauseCount, millis(rank(sorted, 50)),
          millis(rank(sorted, 99)), millis(rank(sorted, 100)), millis(total), heap.peak(),
          maxHeapBytes);
    }
  }

  /**
   * The nearest-rank percentile of sorted values: the smallest value that at least {@code
   * percent}% of them do not exceed; 0 for none.
   */
  private static long rank(long[] sorted, int percent) {
    if (sorted.length == 0) {
      return 0;
    }
    int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }

  /** How long {@link #endPhase} waits for JFR to deliver the phase's pauses. */
  static final long DELIVERY_BOUND_SECONDS = 30;

  private void awaitJfrPauses() {
    boolean delivered;
    try {
      delivered = jfr.awaitDelivery(Duration.ofSeconds(DELIVERY_BOUND_SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      delivered = false;
    }
    if (!delivered) {
      System.err.println("gc: JFR did not deliver the collector's pauses within "
          + DELIVERY_BOUND_SECONDS + " s of the phase's end; the phase's pause figures may miss"
          + " its last ones");
    }
  }

  /** Stops listening (a no-op for a recorder fed by hand). */
  @Override
  public void close() {
    unsubscribe.forEach(Runnable::run);
    unsubscribe.clear();
    if (jfr != null) {
      jfr.close();
      jfr = null;
    }
  }
}
