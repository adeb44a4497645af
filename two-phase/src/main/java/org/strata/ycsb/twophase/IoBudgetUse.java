package org.strata.ycsb.twophase;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * How much of the I/O budget a phase used: (bytes flushed + bytes merged) per second over the
 * configured write-rate limit, counted over the seconds {@code fromSecond + 1 .. toSecond} of the
 * phase's per-second samples (the testing phase: the seconds after its warm-up, the ones its
 * maximum throughput is measured over; a running phase: its seconds of arrivals). Each system
 * counts its own bytes flushed and merged (docs/compare.md); 1.0 means background writes ran at
 * the full budget the whole time.
 *
 * @param fromSecond seconds before the window (excluded)
 * @param toSecond the window's last second
 * @param bytesFlushed bytes written by flushes in the window
 * @param bytesMerged bytes written by merges in the window
 * @param limitBytesPerSecond the configured write-rate limit (0: none)
 */
public record IoBudgetUse(int fromSecond, int toSecond, long bytesFlushed, long bytesMerged,
    long limitBytesPerSecond) {

  /** The use over the samples of seconds {@code fromSecond + 1 .. toSecond}. */
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
    return new IoBudgetUse(fromSecond, toSecond, flushed, merged, limitBytesPerSecond);
  }

  /** Seconds in the window. */
  public int seconds() {
    return Math.max(0, toSecond - fromSecond);
  }

  /** Bytes flushed and merged per second over the window. */
  public double bytesPerSecond() {
    return seconds() == 0 ? 0 : (double) (bytesFlushed + bytesMerged) / seconds();
  }

  /** {@link #bytesPerSecond()} over the limit, or NaN when no limit is set. */
  public double use() {
    return limitBytesPerSecond <= 0 ? Double.NaN : bytesPerSecond() / limitBytesPerSecond;
  }

  /** As JSON ({@code use} is null when no limit is set). */
  public ObjectNode json() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("fromSecond", fromSecond);
    o.put("toSecond", toSecond);
    o.put("bytesFlushed", bytesFlushed);
    o.put("bytesMerged", bytesMerged);
    o.put("bytesPerSecond", bytesPerSecond());
    o.put("limitBytesPerSecond", limitBytesPerSecond);
    if (Double.isNaN(use())) {
      o.putNull("use");
    } else {
      o.put("use", use());
    }
    return o;
  }
}
