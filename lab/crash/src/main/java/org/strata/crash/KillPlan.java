package org.strata.crash;

import org.strata.lsm.io.CrashPoint;

/**
 * Where a kill lands: at the {@code occurrence}-th time the child reaches {@code point}, or, with
 * no point, {@code delayMillis} after the child's first acknowledgement. A point the child does not
 * reach within {@code delayMillis} is given up and the kill happens then.
 *
 * @param point the crash point, or null for a kill after a delay
 * @param occurrence which time the point is reached, from 1
 * @param delayMillis the delay (with a point: how long to wait for it)
 */
public record KillPlan(CrashPoint point, int occurrence, long delayMillis) {
  /** How the plan reads in a report line. */
  public String describe() {
    return point == null ? "delay=" + delayMillis + "ms"
        : "point=" + point.configName() + "#" + occurrence;
  }
}
