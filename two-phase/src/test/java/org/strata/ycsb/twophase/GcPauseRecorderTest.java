package org.strata.ycsb.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The pause recorder fed synthetic collections: which collectors count as pauses, the
 * percentiles and total per phase, and the peak heap from the before-collection heap pools.
 */
class GcPauseRecorderTest {
  private static final long MB = 1 << 20;

  private static MemoryUsage used(long bytes) {
    return new MemoryUsage(0, bytes, Math.max(bytes, 1), -1);
  }

  @Test
  void countsOnlyStopTheWorldCollectorsAndResetsPerPhase() {
    AtomicLong heapNow = new AtomicLong(10 * MB);
    GcPauseRecorder r = new GcPauseRecorder(Set.of("G1 Eden Space", "G1 Old Gen"),
        heapNow::get, 512 * MB);
    r.startPhase();
    Map<String, MemoryUsage> before = Map.of("G1 Eden Space", used(30 * MB),
        "G1 Old Gen", used(20 * MB), "Metaspace", used(900 * MB));
    for (long ms : new long[] {2, 3, 3, 4, 7}) {
      r.onCollection("G1 Young Generation", ms, before);
    }
    r.onCollection("G1 Old Generation", 40, Map.of("G1 Eden Space", used(5 * MB),
        "G1 Old Gen", used(60 * MB)));
    // A concurrent cycle is not a pause, but its before-collection heap still counts.
    r.onCollection("ZGC Cycles", 900, Map.of("G1 Old Gen", used(70 * MB)));
    heapNow.set(12 * MB);
    GcPhase p = r.endPhase();
    assertThat(p.pauses()).isEqualTo(6);
    assertThat(p.pausingCollectors()).containsExactly("G1 Old Generation", "G1 Young Generation");
    assertThat(p.p50Millis()).isEqualTo(3);
    assertThat(p.maxMillis()).isEqualTo(40);
    assertThat(p.p99Millis()).isEqualTo(40);
    assertThat(p.totalMillis()).isEqualTo(2 + 3 + 3 + 4 + 7 + 40);
    // Metaspace (900 MB) is not heap; the largest heap sum is the cycle's 70 MB.
    assertThat(p.peakHeapBytes()).isEqualTo(70 * MB);
    assertThat(p.maxHeapBytes()).isEqualTo(512 * MB);
    assertThat(p.json().at("/pausingCollectors").size()).isEqualTo(2);
    assertThat(p.row("load")).startsWith("| load | 6 | 3 | 40 | 40 | 59 | 70.0 |");

    heapNow.set(15 * MB);
    r.startPhase();
    r.onCollection("ZGC Pauses", 1, Map.of("G1 Eden Space", used(8 * MB)));
    heapNow.set(11 * MB);
    GcPhase q = r.endPhase();
    assertThat(q.pauses()).isEqualTo(1);
    assertThat(q.pausingCollectors()).containsExactly("ZGC Pauses");
    assertThat(q.totalMillis()).isEqualTo(1);
    // The heap at the phase's start (15 MB) beats the collection's 8 MB and the end's 11 MB.
    assertThat(q.peakHeapBytes()).isEqualTo(15 * MB);
  }

  @Test
  void aPhaseWithoutCollectionsHasNoPausesAndTheHeapAtItsEnd() {
    AtomicLong heapNow = new AtomicLong(3 * MB);
    GcPauseRecorder r = new GcPauseRecorder(Set.of("heap"), heapNow::get, 64 * MB);
    r.startPhase();
    heapNow.set(9 * MB);
    GcPhase p = r.endPhase();
    assertThat(p.pauses()).isZero();
    assertThat(p.maxMillis()).isZero();
    assertThat(p.pausingCollectors()).isEmpty();
    assertThat(p.peakHeapBytes()).isEqualTo(9 * MB);
  }

  @Test
  void theRuleNamesConcurrentCyclesAsTheOnlyNonPauses() {
    for (String pause : new String[] {"G1 Young Generation", "G1 Old Generation",
        "G1 Concurrent GC", "ZGC Pauses", "ZGC Major Pauses", "Shenandoah Pauses",
        "PS Scavenge", "PS MarkSweep", "Copy", "MarkSweepCompact"}) {
      assertThat(GcPauseRecorder.isPauseCollector(pause)).as(pause).isTrue();
    }
    for (String cycle : new String[] {"ZGC Cycles", "ZGC Major Cycles", "ZGC Minor Cycles",
        "Shenandoah Cycles"}) {
      assertThat(GcPauseRecorder.isPauseCollector(cycle)).as(cycle).isFalse();
    }
  }

  @Test
  void thePlatformRecorderListensAndStops() {
    try (GcPauseRecorder r = GcPauseRecorder.platform()) {
      r.startPhase();
      GcPhase p = r.endPhase();
      assertThat(p.peakHeapBytes()).isPositive();
      assertThat(p.maxHeapBytes()).isEqualTo(Runtime.getRuntime().maxMemory());
    }
    assertThat(GcPauseRecorder.collectorNames()).isNotEmpty();
  }
}
