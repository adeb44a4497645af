package org.strata.ycsb.twophase;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
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
 * Cleanup pauses, which JDK 17 reports through no bean at all. Parallel and Serial collectors
 * pause for every collection.
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

  /**
   * A recorder fed by {@link #onCollection} (tests feed it synthetic collections).
   *
   * @param heapPools names of the heap's memory pools (their before-collection use is summed)
   * @param heapUsedNow the heap used now, read at the start and end of each phase
   * @param maxHeapBytes the JVM's maximum heap, for reports
   */
  public GcPauseRecorder(Set<String> heapPools, LongSupplier heapUsedNow, long maxHeapBytes) {
    this.heapPools = Set.copyOf(heapPools);
    this.heapUsedNow = heapUsedNow;
    this.maxHeapBytes = maxHeapBytes;
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
        pauses.recordValue(Math.max(0, durationMillis));
        totalMillis += Math.max(0, durationMillis);
        pausing.add(collector);
      }
    }
  }

  /** Starts a phase: forgets earlier pauses and resets the peak to the heap used now. */
  public synchronized void startPhase() {
    pauses.reset();
    totalMillis = 0;
    pausing.clear();
    heap.reset(heapUsedNow.getAsLong());
  }

  /** Ends a phase: its pauses and peak heap (the heap used now counts towards the peak). */
  public synchronized GcPhase endPhase() {
    heap.observe(heapUsedNow.getAsLong());
    long n = pauses.getTotalCount();
    return new GcPhase(new ArrayList<>(pausing), n,
        n == 0 ? 0 : pauses.getValueAtPercentile(50), n == 0 ? 0 : pauses.getValueAtPercentile(99),
        n == 0 ? 0 : pauses.getMaxValue(), totalMillis, heap.peak(), maxHeapBytes);
  }

  /** Stops listening (a no-op for a recorder fed by hand). */
  @Override
  public void close() {
    unsubscribe.forEach(Runnable::run);
    unsubscribe.clear();
  }
}
