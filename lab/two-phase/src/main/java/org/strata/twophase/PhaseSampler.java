package org.strata.twophase;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

/**
 * Samples a phase once a second on its own thread: the driver's counters, the system's statistics,
 * and the latency recorders, whose one-second interval histograms go to HdrHistogram log files
 * ({@code .hlog}) and into whole-phase histograms. Prints the progress line.
 */
final class PhaseSampler implements AutoCloseable {
  private final String phase;
  private final java.util.function.Supplier<TargetStats> system;
  private final LongSupplier arrived;
  private final LongSupplier completed;
  private final IntSupplier queue;
  private final Recorder write;
  private final Recorder processing;
  private final Recorder arrivalLag;
  private final Progress progress;
  private final int totalSeconds;
  private final List<PhaseSample> samples = new ArrayList<>();
  /** The system's I/O budget counters at the start (index 0) and at the end of each second. */
  private final List<Map<String, Long>> ioCounters = new ArrayList<>();
  private final Histogram writeTotal = new Histogram(3);
  private final Histogram processingTotal = new Histogram(3);
  private final List<AutoCloseable> logs = new ArrayList<>();
  private final HistogramLogWriter writeLog;
  private final HistogramLogWriter processingLog;
  private final HistogramLogWriter arrivalLagLog;
  private final Thread thread;
  private final long startNanos;
  private volatile boolean stop;
  /** Queries completed so far, once a query load runs alongside ({@link #countQueries}). */
  private volatile LongSupplier queries = () -> 0;
  private long lastQueries;
  private TargetStats last;
  private boolean lastStalled;
  private long lastArrived;
  private long lastCompleted;
  private Histogram writeInterval;
  private Histogram processingInterval;
  private Histogram arrivalLagInterval;

  /** Counts the queries of a load started after this sampler (cumulative completions). */
  void countQueries(LongSupplier completedQueries) {
    queries = completedQueries;
  }

  /**
   * Starts sampling. {@code write}, {@code processing} and {@code arrivalLag} are all null (the
   * testing phase records no latency) or all given; {@code logDir} then receives {@code
   * <phase>-write.hlog}, {@code <phase>-processing.hlog} and {@code <phase>-arrival-lag.hlog}.
   */
  PhaseSampler(String phase, java.util.function.Supplier<TargetStats> system,
      LongSupplier arrived, LongSupplier completed, IntSupplier queue, Recorder write,
      Recorder processing, Recorder arrivalLag, Path logDir, Progress progress, int totalSeconds)
      throws IOException {
    if ((write == null) != (processing == null) || (write == null) != (arrivalLag == null)) {
      throw new IllegalArgumentException("the write, processing and arrival-lag recorders are"
          + " given together or not at all");
    }
    this.phase = phase;
    this.system = system;
    this.arrived = arrived;
    this.completed = completed;
    this.queue = queue;
    this.write = write;
    this.processing = processing;
    this.arrivalLag = arrivalLag;
    this.progress = progress;
    this.totalSeconds = totalSeconds;
    this.writeLog = write == null ? null : log(logDir.resolve(phase + "-write.hlog"));
    this.processingLog = processing == null ? null
        : log(logDir.resolve(phase + "-processing.hlog"));
    this.arrivalLagLog = arrivalLag == null ? null
        : log(logDir.resolve(phase + "-arrival-lag.hlog"));
    this.last = system.get();
    ioCounters.add(last.ioCounters());
    this.startNanos = System.nanoTime();
    if (writeLog != null) {
      long startMillis = System.currentTimeMillis();
      writeLog.outputStartTime(startMillis);
      writeLog.outputLegend();
      processingLog.outputStartTime(startMillis);
      processingLog.outputLegend();
      arrivalLagLog.outputStartTime(startMillis);
      arrivalLagLog.outputLegend();
      write.reset();
      processing.reset();
      arrivalLag.reset();
    }
    this.thread = new Thread(this::loop, "strata-sampler-" + phase);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private HistogramLogWriter log(Path file) throws IOException {
    OutputStream out = Files.newOutputStream(file);
    PrintStream ps = new PrintStream(out, false, java.nio.charset.StandardCharsets.UTF_8);
    logs.add(ps);
    return new HistogramLogWriter(ps);
  }

  private void loop() {
    int second = 0;
    while (!stop) {
      long due = startNanos + TimeUnit.SECONDS.toNanos(second + 1);
      long wait = due - System.nanoTime();
      if (wait > 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(wait);
        if (stop) {
          break;
        }
      }
      second++;
      sample(second);
    }
  }

  private synchronized void sample(int second) {
    TargetStats now = system.get();
    long a = arrived.getAsLong();
    long c = completed.getAsLong();
    double wp99 = Double.NaN;
    double pp99 = Double.NaN;
    double lagMax = Double.NaN;
    if (write != null) {
      writeInterval = write.getIntervalHistogram(writeInterval);
      processingInterval = processing.getIntervalHistogram(processingInterval);
      writeLog.outputIntervalHistogram(writeInterval);
      processingLog.outputIntervalHistogram(processingInterval);
      writeTotal.add(writeInterval);
      processingTotal.add(processingInterval);
      arrivalLagInterval = arrivalLag.getIntervalHistogram(arrivalLagInterval);
      arrivalLagLog.outputIntervalHistogram(arrivalLagInterval);
      if (arrivalLagInterval.getTotalCount() > 0) {
        lagMax = arrivalLagInterval.getMaxValue() / 1000.0;
      }
      if (writeInterval.getTotalCount() > 0) {
        wp99 = writeInterval.getValueAtPercentile(99) / 1000.0;
        pp99 = processingInterval.getValueAtPercentile(99) / 1000.0;
      }
    }
    double stallDelta = now.stallSeconds() - last.stallSeconds();
    long counted = Math.max(0, now.stallCount() - last.stallCount());
    boolean stalled = stallDelta > 0 || counted > 0 || now.stalledNow();
    long started = Math.max(counted, stalled && !lastStalled ? 1 : 0);
    long q = queries.getAsLong();
    PhaseSample s = new PhaseSample(phase, second, a - lastArrived, c - lastCompleted,
        queue.getAsInt(), now.diskComponents(), stalled, Math.max(0, stallDelta),
        now.bytesFlushed() - last.bytesFlushed(), now.bytesMerged() - last.bytesMerged(),
        wp99, pp99, started, now.pendingMergeBytes(), lagMax, now.spaceBytes(),
        q - lastQueries, now.design());
    lastQueries = q;
    lastStalled = stalled;
    samples.add(s);
    ioCounters.add(now.ioCounters());
    progress.update(phase, second, totalSeconds, s,
        stalled ? StallWords.dominant(now.stallsSince(last)) : null);
    last = now;
    lastArrived = a;
    lastCompleted = c;
  }

  /** Stops sampling (taking a last sample of the partial second) and closes the logs. */
  @Override
  public void close() throws IOException {
    stop = true;
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sample(samples.size() + 1);
    progress.finish();
    for (AutoCloseable c : logs) {
      try {
        c.close();
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }

  /**
   * How the I/O budget counters grew from the end of second {@code fromSecond} to the end of
   * second {@code toSecond} (or the last sample, if earlier); empty when the system reports none.
   */
  synchronized Map<String, Long> ioCountersBetween(int fromSecond, int toSecond) {
    int from = Math.min(Math.max(0, fromSecond), ioCounters.size() - 1);
    int to = Math.min(Math.max(from, toSecond), ioCounters.size() - 1);
    Map<String, Long> a = ioCounters.get(from);
    Map<String, Long> m = new LinkedHashMap<>();
    ioCounters.get(to).forEach((k, v) -> m.put(k, v - a.getOrDefault(k, 0L)));
    return m;
  }

  List<PhaseSample> samples() {
    return List.copyOf(samples);
  }

  Histogram writeLatency() {
    return writeTotal;
  }

  Histogram processingLatency() {
    return processingTotal;
  }
}
