package org.strata.lsm.engine;

import java.util.EnumMap;
import java.util.Map;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats.StallTotals;
import org.strata.lsm.events.WriteStallEvent;

/**
 * Records write stalls: a stall starts when the first writer has to wait for a cause and ends when
 * a writer is admitted again. Counts and durations accumulate per cause. Guarded by the store lock.
 */
final class StallTracker {
  private final String store;
  private final long[] counts = new long[StallCause.values().length];
  private final long[] nanos = new long[StallCause.values().length];
  private StallCause current;
  private long startNanos;
  /** The JFR event of the ongoing stall, or null. */
  private WriteStallEvent event;
  private final Ended ended;

  /** Told of each stall as it ends. Called under the lock that guards the tracker: no I/O. */
  interface Ended {
    void ended(StallCause cause, long nanos);
  }

  /** @param store how events name the store, index or partition (its directory name) */
  StallTracker(String store) {
    this(store, (cause, nanos) -> { });
  }

  /** As above, telling {@code ended} of each stall that ends. */
  StallTracker(String store, Ended ended) {
    this.store = store;
    this.ended = ended;
  }

  void waiting(StallCause cause, long now) {
    if (current == cause) {
      return;
    }
    end(now);
    current = cause;
    startNanos = now;
    counts[cause.ordinal()]++;
    WriteStallEvent e = new WriteStallEvent();
    if (e.isEnabled()) {
      e.begin();
      e.store = store;
      e.cause = cause.jsonName();
      event = e;
    }
  }

  void end(long now) {
    if (current != null) {
      long n = Math.max(0, now - startNanos);
      nanos[current.ordinal()] += n;
      ended.ended(current, n);
      current = null;
    }
    if (event != null) {
      event.commit();
      event = null;
    }
  }

  /** Totals, counting an ongoing stall up to {@code now}. */
  Map<StallCause, StallTotals> totals(long now) {
    Map<StallCause, StallTotals> m = new EnumMap<>(StallCause.class);
    for (StallCause c : StallCause.values()) {
      long n = nanos[c.ordinal()] + (current == c ? Math.max(0, now - startNanos) : 0);
      m.put(c, new StallTotals(counts[c.ordinal()], n / 1e9));
    }
    return m;
  }

  /** True while a stall is ongoing. */
  boolean ongoing() {
    return current != null;
  }

  void restore(StallCause c, long count, long totalNanos) {
    counts[c.ordinal()] = count;
    nanos[c.ordinal()] = totalNanos;
  }

  long count(StallCause c) {
    return counts[c.ordinal()];
  }

  long nanos(StallCause c) {
    return nanos[c.ordinal()];
  }
}
