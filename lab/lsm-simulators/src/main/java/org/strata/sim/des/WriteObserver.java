package org.strata.sim.des;

/** Sees every simulated write (for exact per-write comparisons such as Theorem 1). */
@FunctionalInterface
public interface WriteObserver {
  /**
   * @param index the write's position in the arrival sequence, from 0
   * @param arrival its intended arrival time, seconds
   * @param dequeued when the writer took it
   * @param completed when it was in the memory component
   */
  void written(long index, double arrival, double dequeued, double completed);
}
