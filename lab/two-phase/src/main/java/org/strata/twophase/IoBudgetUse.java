package org.strata.twophase;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How much of the I/O budget a phase used: (bytes flushed + bytes merged) per second over the
 * configured write-rate limit, counted over the seconds {@code fromSecond + 1 .. toSecond} of the
 * phase (the testing phase: the seconds after its warm-up, the ones its maximum throughput is
 * measured over; a running phase: its seconds of arrivals). 1.0 means background writes ran at
 * the full budget the whole time.
 *
 * <p>Bytes are counted as they are written when the system reports that (Strata: the bytes its
 * I/O throttle admitted to flushes and merges, {@code countedAs = "written"}); otherwise from the
 * per-second samples of the system's bytes flushed and merged ({@code countedAs = "completed"};
 * Strata's engine counters grow when a flush or merge completes, so a merge running across the
 * window's edge puts all its bytes on one side; docs/compare.md says how each peer counts).
 *
 * @param fromSecond seconds before the window (excluded)
 * @param toSecond the window's last second
 * @param bytesFlushed bytes written by flushes in the window
 * @param bytesMerged bytes written by merges in the window
 * @param limitBytesPerSecond the configured write-rate limit (0: none)
 * @param countedAs {@code written} or {@code completed}: how the bytes were counted
 * @param completedBytesFlushed bytes of the flushes that completed in the window
 * @param completedBytesMerged bytes of the merges that completed in the window
 * @param budgetCounters how the system's I/O budget counters grew over the window (Strata: the
 *     throttle's admitted bytes, sleep, discarded budget and force times; empty for others)
 */
public record IoBudgetUse(int fromSecond, int toSecond, long bytesFlushed, long bytesMerged,
    long limitBytesPerSecond, String countedAs, long completedBytesFlushed,
    long completedBytesMerged, Map<String, Long> budgetCounters) {

  /** Counted as written. */
  public static final String WRITTEN = "written";
  /** Counted when flushes and merges complete. */
  public static final String COMPLETED = "completed";
  /** The counter of bytes admitted to flushes, in {@link #budgetCounters}. */
  public static final String FLUSH_BYTES_ADMITTED = "flushBytesAdmitted";
  /** The counter of bytes admitted to merges, in {@link #budgetCounters}. */
  public static final String MERGE_BYTES_ADMITTED = "mergeBytesAdmitted";

  public IoBudgetUse {
    if (!WRITTEN.equals(countedAs) && !COMPLETED.equals(countedAs)) {
      throw new IllegalArgumentException("countedAs must be written or completed, got "
          + countedAs);
    }
    budgetCounters = Collections.unmodifiableMap(new LinkedHashMap<>(budgetCounters));
  }

  /** The use over the samples of seconds {@code fromSecond + 1 .. toSecond}, as completed. */
  public static IoBudgetUse of(List<PhaseSample> samples, int fromSecond, int toSecond,
      long limitBytesPerSecond) {
    long flushed = 0;
    long merged = 0;
    for (PhaseSample s : samples) {
      if (s.second() > fromSecond && s.second() <= toSecond) {
        flushed += s.bytesFlushed();
        merged += s.bytesMerged();
      }
    }
    return new IoBudgetUse(fromSecond, toSecond, flushed, merged, limitBytesPerSecond, COMPLETED,
        flushed, merged, Map.of());
  }

  /**
   * This use with the budget counters that grew over its window. When they hold the bytes
   * admitted to flushes and merges, the use is counted from them (as written).
   */
  public IoBudgetUse withBudgetCounters(Map<String, Long> counters) {
    Long flush = counters.get(FLUSH_BYTES_ADMITTED);
    Long merge = counters.get(MERGE_BYTES_ADMITTED);
    if (flush == null || merge == null) {
      return new IoBudgetUse(fromSecond, toSecond, bytesFlushed, bytesMerged, limitBytesPerSecond,
          countedAs, completedBytesFlushed, completedBytesMerged, counters);
    }
    return new IoBudgetUse(fromSecond, toSecond, flush, merge, limitBytesPerSecond, WRITTEN,
        completedBytesFlushed, completedBytesMerged, counters);
  }

  /** Seconds in the window. */
  public int seconds() {
    return Math.max(0, toSecond - fromSecond);
  }

  /** Bytes flushed and merged per second over the window. */
  public double bytesPerSecond() {
    return perSecond(bytesFlushed + bytesMerged);
  }

  /** {@link #bytesPerSecond()} over the limit, or NaN when no limit is set. */
  public double use() {
    return overLimit(bytesPerSecond());
  }

  /** The use counted from the flushes and merges that completed in the window. */
  public double useCountedAtCompletion() {
    return overLimit(perSecond(completedBytesFlushed + completedBytesMerged));
  }

  private double perSecond(long bytes) {
    return seconds() == 0 ? 0 : (double) bytes / seconds();
  }

  private double overLimit(double bytesPerSecond) {
    return limitBytesPerSecond <= 0 ? Double.NaN : bytesPerSecond / limitBytesPerSecond;
  }

  /** As JSON ({@code use} is null when no limit is set). */
  public ObjectNode json() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("fromSecond", fromSecond);
    o.put("toSecond", toSecond);
    o.put("countedAs", countedAs);
    o.put("bytesFlushed", bytesFlushed);
    o.put("bytesMerged", bytesMerged);
    o.put("bytesPerSecond", bytesPerSecond());
    o.put("limitBytesPerSecond", limitBytesPerSecond);
    putUse(o, "use", use());
    if (WRITTEN.equals(countedAs)) {
      o.put("completedBytesFlushed", completedBytesFlushed);
      o.put("completedBytesMerged", completedBytesMerged);
      putUse(o, "useCountedAtCompletion", useCountedAtCompletion());
    }
    if (!budgetCounters.isEmpty()) {
      ObjectNode c = o.putObject("budgetCounters");
      budgetCounters.forEach(c::put);
    }
    return o;
  }

  private static void putUse(ObjectNode o, String name, double use) {
    if (Double.isNaN(use)) {
      o.putNull(name);
    } else {
      o.put(name, use);
    }
  }
}
