package org.strata.reproduce;

import java.util.Map;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats;

/**
 * The writes a run's store stalled and the seconds they waited, by cause: {@code memoryFull}
 * (every memory component full, its flush not done) and {@code constraint} (the merge policy's
 * component constraint, e.g. level 0 at {@code l0-stop}).
 */
record Stalls(long memoryFull, double memoryFullSeconds, long constraint,
    double constraintSeconds) {

  static final Stalls NONE = new Stalls(0, 0, 0, 0);

  /** The stalls between two snapshots of a store's statistics. */
  static Stalls between(Map<StallCause, StoreStats.StallTotals> before,
      Map<StallCause, StoreStats.StallTotals> after) {
    return new Stalls(count(before, after, StallCause.MEMORY_FULL),
        seconds(before, after, StallCause.MEMORY_FULL), count(before, after,
        StallCause.CONSTRAINT), seconds(before, after, StallCause.CONSTRAINT));
  }

  private static long count(Map<StallCause, StoreStats.StallTotals> before,
      Map<StallCause, StoreStats.StallTotals> after, StallCause c) {
    StoreStats.StallTotals a = after.get(c);
    StoreStats.StallTotals b = before.get(c);
    return (a == null ? 0 : a.count()) - (b == null ? 0 : b.count());
  }

  private static double seconds(Map<StallCause, StoreStats.StallTotals> before,
      Map<StallCause, StoreStats.StallTotals> after, StallCause c) {
    StoreStats.StallTotals a = after.get(c);
    StoreStats.StallTotals b = before.get(c);
    return (a == null ? 0 : a.seconds()) - (b == null ? 0 : b.seconds());
  }

  /** Every stall, whatever its cause. */
  long count() {
    return memoryFull + constraint;
  }

  /** Seconds waited, every cause. */
  double seconds() {
    return memoryFullSeconds + constraintSeconds;
  }

  /** A table cell: {@code memory full / constraint}, each with its seconds. */
  String cell() {
    return memoryFull + " (" + Numbers.format(memoryFullSeconds) + ") / " + constraint + " ("
        + Numbers.format(constraintSeconds) + ")";
  }
}
