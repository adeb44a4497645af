package org.strata.lsm.io;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where an {@link IoThrottle}'s budget went, cumulative since the throttle was made: bytes the
 * flushes and merges were admitted, time they slept waiting for tokens, budget thrown away because
 * the bucket was full and nobody asked for it (split by whether a flush or merge was writing a
 * component at the time), and time spent forcing component files.
 *
 * @param flushBytesAdmitted bytes admitted to flushes (priority acquisitions), counted as they
 *     are written rather than when the flush completes
 * @param mergeBytesAdmitted bytes admitted to merges, counted as they are written
 * @param waitNanos nanoseconds callers slept waiting for tokens, summed over callers
 * @param discardedIdleBytes budget that accrued into a full bucket while no flush or merge was
 *     writing a component (the scheduler or the flusher left the budget idle)
 * @param discardedBusyBytes budget that accrued into a full bucket while at least one flush or
 *     merge was writing a component but none asked for tokens (it was forcing, reading its inputs,
 *     building pages, or waiting on something other than the throttle)
 * @param flushForces forces of flushed component files (periodic and final)
 * @param flushForceNanos nanoseconds flushes spent blocked in those forces
 * @param mergeForces forces of merged component files
 * @param mergeForceNanos nanoseconds merges spent blocked in those forces
 */
public record IoBudgetCounters(long flushBytesAdmitted, long mergeBytesAdmitted, long waitNanos,
    long discardedIdleBytes,
    long discardedBusyBytes, long flushForces, long flushForceNanos, long mergeForces,
    long mergeForceNanos) {

  /** Bytes admitted to flushes and merges. */
  public long admittedBytes() {
    return flushBytesAdmitted + mergeBytesAdmitted;
  }

  /** Budget thrown away, idle or busy. */
  public long discardedBytes() {
    return discardedIdleBytes + discardedBusyBytes;
  }

  /** The counters as a map with stable names, for JSON reports. */
  public Map<String, Long> toMap() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("flushBytesAdmitted", flushBytesAdmitted);
    m.put("mergeBytesAdmitted", mergeBytesAdmitted);
    m.put("waitNanos", waitNanos);
    m.put("discardedIdleBytes", discardedIdleBytes);
    m.put("discardedBusyBytes", discardedBusyBytes);
    m.put("flushForces", flushForces);
    m.put("flushForceNanos", flushForceNanos);
    m.put("mergeForces", mergeForces);
    m.put("mergeForceNanos", mergeForceNanos);
    return m;
  }
}
