package org.strata.scheduler.des;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Collects what a simulated phase measures: per-second series, stalls, latencies, bytes. */
final class PhaseMetrics implements VirtualIo.Meter {
  /** Why writes are stopped. */
  enum Stall {
    MEMORY,
    CONSTRAINT
  }

  private final double duration;
  private final int seconds;
  private final long[] arrivals;
  private final long[] completed;
  private final double[] stalled;
  private final double[] flushed;
  private final double[] merged;
  private final int[] components;
  private int sampled;
  private final Histogram writeLatency = new Histogram(3);
  private final Histogram processingLatency = new Histogram(3);
  private Stall stall;
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

  PhaseMetrics(double duration) {
    this.duration = duration;
    this.seconds = (int) Math.ceil(duration);
    this.arrivals = new long[seconds];
    this.completed = new long[seconds];
    this.stalled = new double[seconds];
    this.flushed = new double[seconds];
    this.merged = new double[seconds];
    this.components = new int[seconds];
  }

  private int bucket(double t) {
    return Math.min(seconds - 1, (int) t);
  }

  void arrival(double t) {
    if (t < duration) {
      arrivals[bucket(t)]++;
    }
  }

  void completion(double arrival, double dequeued, double done, boolean openLoop) {
    if (done < duration) {
      completed[bucket(done)]++;
    }
    if (openLoop) {
      writeLatency.recordValue(Math.round((done - arrival) * 1e6));
      processingLatency.recordValue(Math.round((done - dequeued) * 1e6));
    }
  }

  @Override
  public void wrote(double from, double to, double flushRate, double mergeRate) {
    double end = Math.min(to, duration);
    spread(flushed, from, end, flushRate);
    spread(merged, from, end, mergeRate);
    double span = end > from ? end - from : 0;
    bytesFlushed += flushRate * span;
    bytesMerged += mergeRate * span;
  }

  /** Samples the instant at the end of every whole second up to {@code t}. */
  void sampleUpTo(double t, int componentCount) {
    while (sampled < seconds && sampled + 1 <= t) {
      components[sampled++] = componentCount;
    }
  }

  void components(int count, int flushedCount) {
    maxComponents = Math.max(maxComponents, count);
    maxFlushed = Math.max(maxFlushed, flushedCount);
  }

  /** Records a change of the stop state at {@code now}; null means writes may proceed. */
  void stall(double now, Stall cause) {
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
      if (cause == Stall.MEMORY) {
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
    spread(stalled, stallStart, end, 1);
  }

  /** Adds {@code rate} times the overlap of [from, end) with each second to its bucket. */
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

  PhaseResult finish(String phase, String scheduler, double arrivalRate, long writes,
      int currentComponents, long rejectedMerges) {
    if (stall != null) {
      endStall(duration);
      stall = null;
    }
    sampleUpTo(duration, currentComponents);
    List<SecondSample> series = new ArrayList<>(seconds);
    long queue = 0;
    long total = 0;
    double warm = duration / 6;
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
    return new PhaseResult(phase, scheduler, duration, arrivalRate, writes, maxThroughput,
        LatencySummary.of(writeLatency), LatencySummary.of(processingLatency), stallCount,
        stallSeconds, longestStall, memoryStalls, constraintStalls, maxComponents, maxFlushed, wa,
        queuedAtEnd, rejectedMerges, List.copyOf(series), List.copyOf(merges));
  }
}
