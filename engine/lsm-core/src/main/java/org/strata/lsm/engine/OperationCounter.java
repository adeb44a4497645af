package org.strata.lsm.engine;

import java.util.concurrent.atomic.LongAdder;
import org.strata.lsm.spi.OperationCounts;

/**
 * Counts the updates and point lookups one index serves while open, for {@link
 * org.strata.lsm.spi.MergeContext#operationCounts()}. Lock-free: writers and readers add from any
 * thread without touching the tree lock; a read of the counts may miss operations still adding.
 */
final class OperationCounter {
  private final LongAdder updates = new LongAdder();
  private final LongAdder zeroResultLookups = new LongAdder();
  private final LongAdder existingLookups = new LongAdder();

  /** Counts {@code n} applied writes. */
  void updated(int n) {
    updates.add(n);
  }

  /** Counts a point lookup that found a value ({@code found}) or none. */
  void lookedUp(boolean found) {
    (found ? existingLookups : zeroResultLookups).increment();
  }

  /** The counts so far. */
  OperationCounts counts() {
    return new OperationCounts(updates.sum(), zeroResultLookups.sum(), existingLookups.sum());
  }
}
