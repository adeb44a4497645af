package org.strata.lsm;

import java.util.List;

/**
 * How long a store's flushes or merges took since it was opened (not kept across restarts), in
 * buckets of seconds: what the metrics expose as a Prometheus histogram.
 *
 * @param bounds the buckets' upper bounds in seconds, ascending ({@link #BOUNDS})
 * @param counts how many fell in each bucket (not cumulative): one per bound, then one for those
 *     above the last bound
 * @param sumSeconds the durations' sum
 */
public record DurationHistogram(List<Double> bounds, List<Long> counts, double sumSeconds) {
  /** The upper bounds every histogram uses, from 10 ms to a minute. */
  public static final List<Double> BOUNDS = List.of(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 60.0);

  public DurationHistogram {
    bounds = List.copyOf(bounds);
    counts = List.copyOf(counts);
    if (counts.size() != bounds.size() + 1) {
      throw new IllegalArgumentException("a histogram has one count per bound and one above,"
          + " got " + counts.size() + " counts for " + bounds.size() + " bounds");
    }
  }

  /** A histogram with nothing in it. */
  public static DurationHistogram empty() {
    Long[] zeros = new Long[BOUNDS.size() + 1];
    java.util.Arrays.fill(zeros, 0L);
    return new DurationHistogram(BOUNDS, List.of(zeros), 0);
  }

  /** How many durations it holds. */
  public long count() {
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    return n;
  }

  /** The counts of a histogram being filled: {@link #add}, then {@link #snapshot}. */
  public static final class Counts {
    private final long[] buckets = new long[BOUNDS.size() + 1];
    private double sum;

    /** Counts one duration. */
    public void add(double seconds) {
      int i = 0;
      while (i < BOUNDS.size() && seconds > BOUNDS.get(i)) {
        i++;
      }
      buckets[i]++;
      sum += Math.max(0, seconds);
    }

    /** The histogram so far. */
    public DurationHistogram snapshot() {
      Long[] c = new Long[buckets.length];
      for (int i = 0; i < c.length; i++) {
        c[i] = buckets[i];
      }
      return new DurationHistogram(BOUNDS, List.of(c), sum);
    }
  }
}
