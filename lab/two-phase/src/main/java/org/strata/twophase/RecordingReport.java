package org.strata.twophase;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.strata.lsm.StallCause;
import org.strata.lsm.config.Quantities;
import org.strata.lsm.events.FlushEvent;
import org.strata.lsm.events.LogForceEvent;
import org.strata.lsm.events.MergeEvent;
import org.strata.lsm.events.ThrottleWaitEvent;
import org.strata.lsm.events.WriteStallEvent;

/**
 * The report of a JVM Flight Recorder recording of any run of Strata (a two-phase run, a YCSB run,
 * an application started with {@code -XX:StartFlightRecording}): per second, the bytes flushed and
 * merged, the stalls by cause, the I/O budget's waits, the log's forces and the collector's
 * pauses; in total, the same per store ({@code strata jfr-report}, docs/observing.md). It reads
 * only the recording's Strata events ({@code strata.Flush}, {@code strata.Merge}, {@code
 * strata.WriteStall}, {@code strata.ThrottleWait}, {@code strata.LogForce}) and {@code
 * jdk.GCPhasePause}; a flush or merge counts in the second it ended, a stall or wait in every
 * second it covers, cut at the seconds' edges. Writes themselves are not events, so the report
 * has no write throughput or latency: those are the two-phase runner's own measurements.
 */
public final class RecordingReport {
  /** Files written into the output directory. */
  public static final String CSV = "timeseries.csv";
  public static final String SUMMARY = "summary.json";
  public static final String REPORT = "report.md";
  public static final String IO_CHART = "io.png";
  public static final String STALL_CHART = "stalls.png";

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  /** One second of the recording. */
  static final class Second {
    long flushes;
    long flushBytes;
    long merges;
    long mergeBytes;
    long stallsStarted;
    final double[] stalledSeconds = new double[StallCause.values().length];
    double throttleWaitSeconds;
    long logForces;
    double gcPauseMillis;
  }

  /** Totals of one store (index, partition) of the recording. */
  static final class Store {
    long flushes;
    long flushBytes;
    long mergesOk;
    long mergesOther;
    long mergeBytes;
    final long[] stalls = new long[StallCause.values().length];
    final double[] stallSeconds = new double[StallCause.values().length];
    final List<Double> flushMillis = new ArrayList<>();
    final List<Double> mergeMillis = new ArrayList<>();
  }

  private final TreeMap<Long, Second> seconds = new TreeMap<>();
  private final Map<String, Store> stores = new TreeMap<>();
  private Instant start;
  private Instant end;
  private long throttleWaits;
  private long logForces;
  private long gcPauses;

  private RecordingReport() {}

  /**
   * Reads {@code recording} and writes the CSV, summary, charts and report into {@code out}.
   *
   * @return the report
   * @throws IllegalArgumentException if the recording holds no Strata event
   */
  public static RecordingReport write(Path recording, Path out) throws IOException {
    RecordingReport r = read(recording);
    Files.createDirectories(out);
    r.writeCsv(out.resolve(CSV));
    JSON.writeValue(out.resolve(SUMMARY).toFile(), r.summary(recording));
    r.writeCharts(out);
    Files.writeString(out.resolve(REPORT), r.markdown(recording));
    return r;
  }

  static RecordingReport read(Path recording) throws IOException {
    List<RecordedEvent> events = RecordingFile.readAllEvents(recording);
    RecordingReport r = new RecordingReport();
    for (RecordedEvent e : events) {
      String name = e.getEventType().getName();
      if (name.startsWith("strata.") || name.equals("jdk.GCPhasePause")) {
        if (r.start == null || e.getStartTime().isBefore(r.start)) {
          r.start = e.getStartTime();
        }
        if (r.end == null || e.getEndTime().isAfter(r.end)) {
          r.end = e.getEndTime();
        }
      }
    }
    boolean strata = events.stream().anyMatch(e -> e.getEventType().getName().startsWith(
        "strata."));
    if (!strata) {
      throw new IllegalArgumentException(recording + " holds no Strata event: record a run of"
          + " Strata with the JDK's settings (-XX:StartFlightRecording=filename=run.jfr)");
    }
    for (RecordedEvent e : events) {
      r.add(e);
    }
    return r;
  }

  private void add(RecordedEvent e) {
    String name = e.getEventType().getName();
    double millis = e.getDuration().toNanos() / 1e6;
    switch (name) {
      case FlushEvent.NAME -> {
        Second s = second(e.getEndTime());
        Store st = store(e.getString("store"));
        s.flushes++;
        s.flushBytes += e.getLong("bytes");
        st.flushes++;
        st.flushBytes += e.getLong("bytes");
        st.flushMillis.add(millis);
      }
      case MergeEvent.NAME -> {
        Second s = second(e.getEndTime());
        Store st = store(e.getString("store"));
        s.merges++;
        s.mergeBytes += e.getLong("outputBytes");
        st.mergeBytes += e.getLong("outputBytes");
        if ("ok".equals(e.getString("outcome"))) {
          st.mergesOk++;
          st.mergeMillis.add(millis);
        } else {
          st.mergesOther++;
        }
      }
      case WriteStallEvent.NAME -> {
        StallCause cause = StallCause.fromJsonName(e.getString("cause")).orElse(null);
        if (cause == null) {
          return;
        }
        Store st = store(e.getString("store"));
        st.stalls[cause.ordinal()]++;
        st.stallSeconds[cause.ordinal()] += millis / 1e3;
        second(e.getStartTime()).stallsStarted++;
        spread(e, (s, secs) -> s.stalledSeconds[cause.ordinal()] += secs);
      }
      case ThrottleWaitEvent.NAME -> {
        throttleWaits++;
        spread(e, (s, secs) -> s.throttleWaitSeconds += secs);
      }
      case LogForceEvent.NAME -> {
        logForces++;
        second(e.getEndTime()).logForces++;
      }
      case "jdk.GCPhasePause" -> {
        gcPauses++;
        second(e.getStartTime()).gcPauseMillis += millis;
      }
      default -> { }
    }
  }

  private interface Share {
    void add(Second s, double seconds);
  }

  /** Gives each second the part of {@code e}'s duration that falls in it. */
  private void spread(RecordedEvent e, Share share) {
    long from = nanosSinceStart(e.getStartTime());
    long to = nanosSinceStart(e.getEndTime());
    for (long sec = from / 1_000_000_000L; sec <= to / 1_000_000_000L; sec++) {
      long lo = Math.max(from, sec * 1_000_000_000L);
      long hi = Math.min(to, (sec + 1) * 1_000_000_000L);
      if (hi > lo) {
        share.add(seconds.computeIfAbsent(sec, k -> new Second()), (hi - lo) / 1e9);
      }
    }
  }

  private long nanosSinceStart(Instant t) {
    return java.time.Duration.between(start, t).toNanos();
  }

  private Second second(Instant t) {
    return seconds.computeIfAbsent(nanosSinceStart(t) / 1_000_000_000L, k -> new Second());
  }

  private Store store(String name) {
    return stores.computeIfAbsent(name == null ? "?" : name, k -> new Store());
  }

  /** Seconds covered, from the first event to the last. */
  long durationSeconds() {
    return nanosSinceStart(end) / 1_000_000_000L + 1;
  }

  private void writeCsv(Path file) throws IOException {
    StringBuilder b = new StringBuilder("second,flushes,flush_bytes,merges,merge_bytes,"
        + "stalls_started");
    for (StallCause c : StallCause.values()) {
      b.append(",stalled_s_").append(c.jsonName());
    }
    b.append(",throttle_wait_s,log_forces,gc_pause_ms\n");
    for (long sec = 0; sec < durationSeconds(); sec++) {
      Second s = seconds.getOrDefault(sec, new Second());
      b.append(sec + 1).append(',').append(s.flushes).append(',').append(s.flushBytes)
          .append(',').append(s.merges).append(',').append(s.mergeBytes).append(',')
          .append(s.stallsStarted);
      for (double d : s.stalledSeconds) {
        b.append(',').append(String.format(Locale.ROOT, "%.6f", d));
      }
      b.append(String.format(Locale.ROOT, ",%.6f,%d,%.3f%n", s.throttleWaitSeconds,
          s.logForces, s.gcPauseMillis));
    }
    Files.writeString(file, b);
  }

  private ObjectNode summary(Path recording) {
    ObjectNode o = JSON.createObjectNode();
    o.put("recording", recording.getFileName().toString());
    o.put("start", start.toString());
    o.put("seconds", durationSeconds());
    ObjectNode ss = o.putObject("stores");
    stores.forEach((name, st) -> {
      ObjectNode s = ss.putObject(name);
      s.put("flushes", st.flushes);
      s.put("bytesFlushed", st.flushBytes);
      s.put("merges", st.mergesOk);
      s.put("mergesCancelledOrFailed", st.mergesOther);
      s.put("bytesMerged", st.mergeBytes);
      ObjectNode stalls = s.putObject("stalls");
      for (StallCause c : StallCause.values()) {
        ObjectNode one = stalls.putObject(c.jsonName());
        one.put("count", st.stalls[c.ordinal()]);
        one.put("seconds", st.stallSeconds[c.ordinal()]);
      }
      s.set("flushMillis", percentiles(st.flushMillis));
      s.set("mergeMillis", percentiles(st.mergeMillis));
    });
    o.put("throttleWaits", throttleWaits);
    o.put("logForces", logForces);
    o.put("gcPauses", gcPauses);
    return o;
  }

  private static ObjectNode percentiles(List<Double> values) {
    ObjectNode o = JSON.createObjectNode();
    List<Double> v = new ArrayList<>(values);
    v.sort(null);
    o.put("count", v.size());
    if (!v.isEmpty()) {
      o.put("p50", v.get((int) Math.ceil(0.50 * v.size()) - 1));
      o.put("p99", v.get((int) Math.ceil(0.99 * v.size()) - 1));
      o.put("max", v.get(v.size() - 1));
    }
    return o;
  }

  private void writeCharts(Path out) throws IOException {
    List<Double> x = new ArrayList<>();
    List<Double> flushed = new ArrayList<>();
    List<Double> merged = new ArrayList<>();
    List<List<Double>> stalled = new ArrayList<>();
    for (StallCause c : StallCause.values()) {
      stalled.add(new ArrayList<>());
    }
    for (long sec = 0; sec < durationSeconds(); sec++) {
      Second s = seconds.getOrDefault(sec, new Second());
      x.add((double) sec + 1);
      flushed.add(Quantities.mebibytes(s.flushBytes));
      merged.add(Quantities.mebibytes(s.mergeBytes));
      for (StallCause c : StallCause.values()) {
        stalled.get(c.ordinal()).add(s.stalledSeconds[c.ordinal()]);
      }
    }
    XYChart io = chart("Bytes written per second", "MiB/s");
    series(io, "flushed", x, flushed, new Color(0x1f77b4));
    series(io, "merged", x, merged, new Color(0xff7f0e));
    BitmapEncoder.saveBitmap(io, out.resolve(IO_CHART).toString(),
        BitmapEncoder.BitmapFormat.PNG);
    XYChart st = chart("Seconds stalled per second, by cause", "s");
    Color[] colours = {new Color(0xd62728), new Color(0x9467bd)};
    for (StallCause c : StallCause.values()) {
      series(st, c.jsonName(), x, stalled.get(c.ordinal()), colours[c.ordinal() % 2]);
    }
    BitmapEncoder.saveBitmap(st, out.resolve(STALL_CHART).toString(),
        BitmapEncoder.BitmapFormat.PNG);
  }

  private static XYChart chart(String title, String y) {
    XYChart c = new XYChartBuilder().width(1000).height(400).title(title)
        .xAxisTitle("second of the recording").yAxisTitle(y).build();
    c.getStyler().setYAxisMin(0.0);
    c.getStyler().setMarkerSize(0);
    return c;
  }

  private static void series(XYChart c, String name, List<Double> x, List<Double> y,
      Color colour) {
    XYSeries s = c.addSeries(name, x, y);
    s.setLineColor(colour);
    s.setMarkerColor(colour);
    s.setMarker(SeriesMarkers.NONE);
  }

  private String markdown(Path recording) {
    StringBuilder b = new StringBuilder("# Strata in a JFR recording\n\n");
    b.append(String.format(Locale.ROOT, "Recording `%s`, %d s of Strata events from %s."
        + " Written by `strata jfr-report`; what each figure means: docs/observing.md."
        + " Writes are not events: for throughput and latency, see the run's own report.%n%n",
        recording.getFileName(), durationSeconds(), start));
    b.append("| store | flushes | flushed MiB | merges (other) | merged MiB |");
    for (StallCause c : StallCause.values()) {
      b.append(" stalls ").append(c.jsonName()).append(" (s) |");
    }
    b.append(" flush p99 ms | merge p99 ms |\n|---|---:|---:|---:|---:|");
    for (StallCause c : StallCause.values()) {
      b.append("---:|");
    }
    b.append("---:|---:|\n");
    stores.forEach((name, st) -> {
      b.append(String.format(Locale.ROOT, "| %s | %,d | %.1f | %,d (%d) | %.1f |", name,
          st.flushes, Quantities.mebibytes(st.flushBytes), st.mergesOk, st.mergesOther,
          Quantities.mebibytes(st.mergeBytes)));
      for (StallCause c : StallCause.values()) {
        b.append(String.format(Locale.ROOT, " %,d (%.1f) |", st.stalls[c.ordinal()],
            st.stallSeconds[c.ordinal()]));
      }
      b.append(String.format(Locale.ROOT, " %s | %s |%n", p99(st.flushMillis),
          p99(st.mergeMillis)));
    });
    b.append(String.format(Locale.ROOT, "%nI/O budget waits: %,d. Log forces: %,d. Collector"
        + " pauses: %,d.%n%n", throttleWaits, logForces, gcPauses));
    b.append("![Bytes written per second](").append(IO_CHART).append(")\n\n");
    b.append("![Seconds stalled per second](").append(STALL_CHART).append(")\n\n");
    b.append("Per second: `").append(CSV).append("`; totals: `").append(SUMMARY).append("`.\n");
    return b.toString();
  }

  private static String p99(List<Double> values) {
    ObjectNode p = percentiles(values);
    return p.has("p99") ? String.format(Locale.ROOT, "%.1f", p.get("p99").asDouble()) : "-";
  }
}
