package org.strata.sim.des;

/**
 * The disk-component count integrated over virtual time: the count is a step function that
 * changes only when a flush or a merge completes, so its integral is the sum of count × length
 * over the steps. Divided by the elapsed time it is the time-averaged count, what a read arriving
 * at a random instant would find on average.
 */
final class ComponentTime {
  private double since;
  private int count;
  private double integral;

  /** Starts at time {@code start} with {@code initial} components. */
  ComponentTime(double start, int initial) {
    if (initial < 0) {
      throw new IllegalArgumentException("a component count cannot be negative: " + initial);
    }
    this.since = start;
    this.count = initial;
  }

  /**
   * The count becomes {@code newCount} at {@code now}: the old count is integrated up to it.
   *
   * @throws IllegalArgumentException if {@code now} is before the last change or the count is
   *     negative
   */
  void set(double now, int newCount) {
    if (now < since) {
      throw new IllegalArgumentException("time went back from " + since + " to " + now + " s");
    }
    if (newCount < 0) {
      throw new IllegalArgumentException("a component count cannot be negative: " + newCount);
    }
    integral += count * (now - since);
    since = now;
    count = newCount;
  }

  /** Component-seconds from the start up to {@code now} (not before the last change). */
  double integral(double now) {
    if (now < since) {
      throw new IllegalArgumentException("time went back from " + since + " to " + now + " s");
    }
    return integral + count * (now - since);
  }

  /** The current count. */
  int count() {
    return count;
  }
}
