package org.strata.sim.des;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.strata.lsm.StallCause;

/** Collects what a simulated phase measures: per-second series, stalls, latencies, bytes. */
final class PhaseMetrics implements VirtualIo.Meter {
  private final double duration;
  /** The most per-second buckets: ceil(duration), or unbounded for an open-ended phase. */
  private final int seconds;
  /** Buckets allocated so far (all of them up front unless the phase is open-ended). */
  private int allocated;
  private long[] arrivals;
  private long[] completed;
  private double[] stalled;
  private double[] flushed;
  private double[] merged;
  private int[] components;
  private int sampled;
  private final Histogram writeLatency = new Histogram(3);
  private final Histogram processingLatency = new Histogram(3);
  private StallCause stall;
  private double stallStart;
  private int stallCount;
  private int memoryStalls;
  private int constraintStalls;
  private double stallSeconds;
  private double longestStall;
  private int maxComponents;
  private int maxFlushed;
  private double bytesFlushed;
  private double bytesMerged;
  private final List<MergeLogEntry> merges = new ArrayList<>();

  /**
   * @param duration the phase's length in seconds; infinite for a phase that ends when it is done
   *     (an ingest of n flushes), whose per-second buckets are then allocated as time passes
   */
  PhaseMetrics(double duration) {
    this.duration = duration;
    this.seconds = Double.isInfinite(duration) ? Integer.MAX_VALUE : (int) Math.ceil(duration);
    this.arrivals = new long[0];
    this.completed = new long[0];
    this.stalled = new double[0];
    this.flushed = new double[0];
    this.merged = new double[0];
    this.components = new int[0];
    ensure(Double.isInfinite(duration) ? 1023 : seconds - 1);
  }

  /** Makes bucket {@code s} exist. */
  private void ensure(int s) {
    if (s < allocated) {
      return;
    }
    int n = (int) Math.min(seconds, Math.max(s + 1L, 2L * allocated));
    arrivals = Arrays.copyOf(arrivals, n);
    completed = Arrays.copyOf(completed, n);
    stalled = Arrays.copyOf(stalled, n);
    flushed = Arrays.copyOf(flushed, n);
    merged = Arrays.copyOf(merged, n);
    components = Arrays.copyOf(components, n);
    allocated = n;
  }

  private int bucket(double t) {
    int s = Math.min(seconds - 1, (int) t);
    ensure(s);
    return s;
  }

  void arrival(double t) {
    if (t < duration) {
      int b = bucket(t); // before the array is read: it may grow
      arrivals[b]++;
    }
  }

  void completion(double arrival, double dequeued, double done, boolean openLoop) {
    if (done < duration) {
      int b = bucket(done);
      completed[b]++;
    }
    if (openLoop) {
      writeLatency.recordValue(Math.round((done - arrival) * 1e6));
      processingLatency.recordValue(Math.round((done - dequeued) * 1e6));
    }
  }

  @Override
  public void wrote(double from, double to, double flushRate, double mergeRate) {
    double end = Math.min(to, duration);
    reserve(end);
    spread(flushed, from, end, flushRate);
    spread(merged, from, end, mergeRate);
    double span = end > from ? end - from : 0;
    bytesFlushed += flushRate * span;
    bytesMerged += mergeRate * span;
  }

  /** Samples the instant at the end of every whole second up to {@code t}. */
  void sampleUpTo(double t, int componentCount) {
    while (sampled < seconds && sampled + 1 <= t) {
      ensure(sampled);
      components[sampled++] = componentCount;
    }
  }

  void components(int count, int flushedCount) {
    maxComponents = Math.max(maxComponents, count);
    maxFlushed = Math.max(maxFlushed, flushedCount);
  }

  /** Records a change of the stop state at {@code now}; null means writes may proceed. */
  void stall(double now, StallCause cause) {
    if (cause == stall) {
      return;
    }
    if (stall != null) {
      endStall(now);
    }
    stall = cause;
    if (cause != null) {
      stallStart = now;
      stallCount++;
      if (cause == StallCause.MEMORY_FULL) {
        memoryStalls++;
      } else {
        constraintStalls++;
      }
    }
  }

  private void endStall(double now) {
    double end = Math.min(now, duration);
    double length = Math.max(0, end - stallStart);
    stallSeconds += length;
    longestStall = Math.max(longestStall, length);
    reserve(end);
    spread(stalled, stallStart, end, 1);
  }

  /** Makes the buckets up to the one of {@code t} exist, before an array is handed on. */
  private void reserve(double t) {
    if (t > 0) {
      bucket(t);
    }
  }

  /**
   * Adds {@code rate} times the overlap of [from, end) with each second to its bucket; the buckets
   * up to {@code end} must exist ({@link #reserve}).
   */
  private void spread(double[] buckets, double from, double end, double rate) {
    if (rate == 0) {
      return;
    }
    for (double a = from; a < end; ) {
      int s = bucket(a);
      double b = Math.min(end, s + 1.0);
      buckets[s] += rate * (b - a);
      a = b;
    }
  }

  void merge(MergeLogEntry e) {
    merges.add(e);
  }

  /** Bytes written by flushes so far. */
  double bytesFlushed() {
    return bytesFlushed;
  }

  /** Bytes written by merges so far. */
  double bytesMerged() {
    return bytesMerged;
  }

  /** Seconds writes were stopped up to {@code now} (a stop under way counts up to it). */
  double stalledSeconds(double now) {
    return stallSeconds + (stall != null ? Math.max(0, Math.min(now, duration) - stallStart) : 0);
  }

  DesPhaseResult finish(String phase, String scheduler, double arrivalRate, long writes,
      int currentComponents, long rejectedMerges) {
    return finish(phase, scheduler, arrivalRate, writes, currentComponents, rejectedMerges,
        duration);
  }

  /**
   * The result of a phase that ended at {@code end} (its duration, or earlier for a phase that
   * ends when it is done).
   */
  DesPhaseResult finish(String phase, String scheduler, double arrivalRate, long writes,
      int currentComponents, long rejectedMerges, double end) {
    if (stall != null) {
      endStall(end);
      stall = null;
    }
    sampleUpTo(end, currentComponents);
    int seconds = (int) Math.min(this.seconds, Math.ceil(end));
    ensure(seconds - 1);
    List<SecondSample> series = new ArrayList<>(seconds);
    long queue = 0;
    long total = 0;
    double warm = end / 6;
    long afterWarm = 0;
    for (int s = 0; s < seconds; s++) {
      queue += arrivals[s] - completed[s];
      total += completed[s];
      if (s >= warm) {
        afterWarm += completed[s];
      }
      series.add(new SecondSample(s, arrivalRate > 0 ? arrivals[s] : completed[s], completed[s],
          arrivalRate > 0 ? Math.max(0, queue) : 0, components[s], stalled[s], flushed[s],
          merged[s]));
    }
    double measured = seconds - Math.ceil(warm);
    double maxThroughput = measured > 0 ? afterWarm / measured : 0;
    double wa = bytesFlushed > 0 ? (bytesFlushed + bytesMerged) / bytesFlushed : 0;
    long queuedAtEnd = 0;
    if (arrivalRate > 0) {
      long arrived = 0;
      for (long a : arrivals) {
        arrived += a;
      }
      queuedAtEnd = Math.max(0, arrived - total);
    }
    return new DesPhaseResult(phase, scheduler, end, arrivalRate, writes, maxThroughput,
        LatencySummary.of(writeLatency), LatencySummary.of(processingLatency), stallCount,
        stallSeconds, longestStall, memoryStalls, constraintStalls, maxComponents, maxFlushed, wa,
        queuedAtEnd, rejectedMerges, List.copyOf(series), List.copyOf(merges));
  }
}
