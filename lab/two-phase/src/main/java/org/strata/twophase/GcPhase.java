package org.strata.twophase;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/**
 * The JVM's collector pauses and peak heap during one phase ({@link GcPauseRecorder}). Pause
 * durations are JFR's, to the nanosecond (or, where this JVM cannot record JFR events, the
 * collector beans' whole milliseconds); percentiles are nearest-rank over the phase's pauses.
 *
 * @param pauseKinds what paused during the phase: JFR's pause names ({@code GC Pause}, {@code
 *     Pause Remark}, {@code Pause Mark Start}, ...), or the pausing beans' names
 * @param pauses pauses counted
 * @param p50Millis median pause, ms
 * @param p99Millis 99th percentile pause (nearest rank), ms
 * @param maxMillis longest pause, ms
 * @param totalMillis sum of the pauses, ms
 * @param peakHeapBytes the most heap used during the phase ({@link HeapPeak})
 * @param maxHeapBytes the JVM's maximum heap ({@code -Xmx} or its default)
 */
public record GcPhase(List<String> pauseKinds, long pauses, double p50Millis,
    double p99Millis, double maxMillis, double totalMillis, long peakHeapBytes,
    long maxHeapBytes) {

  public GcPhase {
    pauseKinds = List.copyOf(pauseKinds);
  }

  /** As JSON. */
  public ObjectNode json() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    pauseKinds.forEach(o.putArray("pauseKinds")::add);
    o.put("pauses", pauses);
    o.put("p50Millis", p50Millis);
    o.put("p99Millis", p99Millis);
    o.put("maxMillis", maxMillis);
    o.put("totalMillis", totalMillis);
    o.put("peakHeapBytes", peakHeapBytes);
    o.put("maxHeapBytes", maxHeapBytes);
    return o;
  }

  /** One markdown table row: phase, pauses, p50, p99, max, total (ms), peak heap (MiB). */
  public String row(String phase) {
    return String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %.1f | %.1f |%n", phase,
        pauses, p50Millis, p99Millis, maxMillis, totalMillis, peakHeapBytes / 1048576.0);
  }

  /** The header of {@link #row}'s table. */
  public static String header(String first) {
    return "| " + first + " | pauses | p50 ms | p99 ms | max ms | total ms | peak heap MiB |\n"
        + "|---|---|---|---|---|---|---|\n";
  }
}
