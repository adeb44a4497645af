package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.io.ByteArrayOutputStream;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The pause recorder fed synthetic collections: which collector beans count as pauses, the
 * percentiles and total per phase, the peak heap from the before-collection heap pools, and pauses
 * reported late by when they began; and the platform recorder in child JVMs: G1 running a
 * concurrent cycle, whose Remark and Cleanup pauses no bean reports on JDK 17, and ZGC, whose
 * pauses the beans round down to 0 ms.
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
    assertThat(p.pauseKinds()).containsExactly("G1 Old Generation", "G1 Young Generation");
    assertThat(p.p50Millis()).isEqualTo(3);
    assertThat(p.maxMillis()).isEqualTo(40);
    assertThat(p.p99Millis()).isEqualTo(40);
    assertThat(p.totalMillis()).isEqualTo(2 + 3 + 3 + 4 + 7 + 40);
    // Metaspace (900 MB) is not heap; the largest heap sum is the cycle's 70 MB.
    assertThat(p.peakHeapBytes()).isEqualTo(70 * MB);
    assertThat(p.maxHeapBytes()).isEqualTo(512 * MB);
    assertThat(p.json().at("/pauseKinds").size()).isEqualTo(2);
    assertThat(p.row("load")).startsWith("| load | 6 | 3.00 | 40.00 | 40.00 | 59.0 | 70.0 |");

    heapNow.set(15 * MB);
    r.startPhase();
    r.onCollection("ZGC Pauses", 1, Map.of("G1 Eden Space", used(8 * MB)));
    heapNow.set(11 * MB);
    GcPhase q = r.endPhase();
    assertThat(q.pauses()).isEqualTo(1);
    assertThat(q.pauseKinds()).containsExactly("ZGC Pauses");
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
    assertThat(p.pauseKinds()).isEmpty();
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

  /** A clock the test moves by hand. */
  private static final class HandClock extends Clock {
    private Instant now = Instant.parse("2026-11-24T12:00:00Z");

    void advance(long millis) {
      now = now.plusMillis(millis);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }

  @Test
  void aPauseReportedLateCountsInThePhaseItBeganIn() {
    HandClock clock = new HandClock();
    GcPauseRecorder r = new GcPauseRecorder(Set.of("heap"), () -> MB, 64 * MB, clock);
    Instant beforeFirst = clock.instant();
    clock.advance(1_000);
    r.startPhase();
    Instant inFirst = clock.instant().plusMillis(400);
    clock.advance(1_000);
    Instant betweenPhases = clock.instant().plusMillis(100);
    Instant inSecond = clock.instant().plusMillis(700);
    // Reported before the first phase ends: one from before it, one inside it, and two that
    // begin after its end (a reporter can run late for one pause and early for the next).
    r.onTimedPause("late", beforeFirst, Duration.ofMillis(9));
    r.onTimedPause("late", inFirst, Duration.ofNanos(6_170_000));
    r.onTimedPause("late", betweenPhases, Duration.ofMillis(50));
    r.onTimedPause("late", inSecond, Duration.ofMillis(2));
    r.onCollection("G1 Young Generation", 3, Map.of());
    GcPhase first = r.endPhase();
    assertThat(first.pauses()).isEqualTo(2);
    assertThat(first.pauseKinds()).containsExactly("G1 Young Generation", "late");
    assertThat(first.maxMillis()).isEqualTo(6.17); // to the nanosecond, not the beans' whole ms
    assertThat(first.p50Millis()).isEqualTo(3);
    assertThat(first.totalMillis()).isEqualTo(9.17);

    clock.advance(500);
    r.startPhase();
    clock.advance(1_000);
    GcPhase second = r.endPhase();
    assertThat(second.pauses()).isEqualTo(1);
    assertThat(second.maxMillis()).isEqualTo(2);

    r.startPhase();
    clock.advance(1_000);
    assertThat(r.endPhase().pauses()).as("each pause counts once").isZero();
  }

  @Test
  void percentilesAreNearestRankOverThePhasesPauses() {
    HandClock clock = new HandClock();
    GcPauseRecorder r = new GcPauseRecorder(Set.of("heap"), () -> MB, 64 * MB, clock);
    r.startPhase();
    Instant in = clock.instant().plusMillis(10);
    clock.advance(1_000);
    for (int i = 1; i <= 200; i++) {
      r.onTimedPause("GC Pause", in, Duration.ofNanos(i * 10_000L)); // 0.01 .. 2.00 ms
    }
    GcPhase p = r.endPhase();
    assertThat(p.pauses()).isEqualTo(200);
    assertThat(p.p50Millis()).isEqualTo(1.00); // the 100th of 200
    assertThat(p.p99Millis()).isEqualTo(1.98); // the 198th of 200
    assertThat(p.maxMillis()).isEqualTo(2.00);
    assertThat(p.totalMillis()).isCloseTo(201.0, offset(1e-9));
  }

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }

  /** Runs {@link PausePhaseMain} in a child JVM with these options; its one output line. */
  private static String childPhase(String... jvmOptions) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(List.of(jvmOptions));
    command.addAll(List.of("-Xmx128m", "-cp", classPath(), PausePhaseMain.class.getName()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Thread reader = new Thread(() -> {
      try {
        p.getInputStream().transferTo(out);
      } catch (java.io.IOException ignored) {
        // the process ended
      }
    });
    reader.start();
    boolean ended = p.waitFor(60, TimeUnit.SECONDS);
    if (!ended) {
      p.destroyForcibly();
    }
    reader.join(10_000);
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(ended).as(text).isTrue();
    assertThat(p.exitValue()).as(text).isZero();
    return text;
  }

  private static long pauses(String text) {
    return Long.parseLong(text.replaceAll("(?s).*;pauses=(\\d+).*", "$1"));
  }

  private static List<String> kinds(String text) {
    return List.of(text.replaceAll("(?s).*kinds=([^;]*);.*", "$1").split(","));
  }

  @Test
  void thePlatformRecorderCountsG1sConcurrentCyclePauses() throws Exception {
    String text = childPhase("-XX:+UseG1GC", "-XX:+ExplicitGCInvokesConcurrent");
    // The cycle's young pause that starts it, its Remark and its Cleanup: the last two reach no
    // collector bean on JDK 17, and the first one's notification may come after the phase ends.
    assertThat(kinds(text)).as(text).contains("GC Pause", "Pause Remark", "Pause Cleanup");
    assertThat(pauses(text)).as(text).isGreaterThanOrEqualTo(3);
  }

  @Test
  void thePlatformRecorderMeasuresZgcPausesBelowAMillisecond() throws Exception {
    String text = childPhase("-XX:+UseZGC");
    assertThat(kinds(text)).as(text)
        .contains("Pause Mark Start", "Pause Mark End", "Pause Relocate Start");
    assertThat(pauses(text)).as(text).isGreaterThanOrEqualTo(3);
    // The beans would say 0 ms for each; JFR gives the nanoseconds.
    double max = Double.parseDouble(text.replaceAll("(?s).*;maxMillis=([0-9.]+).*", "$1"));
    assertThat(max).as(text).isPositive();
  }
}
