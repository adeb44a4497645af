package org.strata.ycsb.twophase;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG charts of a two-phase run: instantaneous write throughput (windows of {@code
 * chart-window-seconds}), disk components and pending merge bytes over time (with each running
 * phase's fitted trend line over its second half, the line the sustainability verdict tests), and
 * write and processing latency percentiles; one series per phase.
 */
final class TwoPhaseCharts {
  static final String THROUGHPUT = "throughput.png";
  static final String COMPONENTS = "disk-components.png";
  static final String LATENCY = "latency.png";
  static final String PENDING = "pending-merge-bytes.png";

  private static final List<String> PERCENTILES = List.of("p50", "p90", "p99", "p99.9", "max");

  private TwoPhaseCharts() {}

  static List<Path> write(Path dir, TwoPhaseResult result) throws IOException {
    int window = result.config().chartWindowSeconds();
    String title = result.config().name();
    XYChart tput = new XYChartBuilder().width(1000).height(450)
        .title(title + ": write throughput (" + window + " s windows)").xAxisTitle("time (s)")
        .yAxisTitle("writes/s").build();
    XYChart comps = new XYChartBuilder().width(1000).height(450)
        .title(title + ": disk components (all trees)").xAxisTitle("time (s)")
        .yAxisTitle("disk components").build();
    XYChart pending = new XYChartBuilder().width(1000).height(450)
        .title(title + ": pending merge bytes").xAxisTitle("time (s)")
        .yAxisTitle("MB").build();
    for (XYChart c : List.of(tput, comps, pending)) {
      c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      c.getStyler().setMarkerSize(0);
    }
    XYChart lat = new XYChartBuilder().width(1000).height(450)
        .title(title + ": latency percentiles (running phases)").xAxisTitle("percentile")
        .yAxisTitle("milliseconds (log scale)").build();
    lat.getStyler().setYAxisLogarithmic(true);
    lat.getStyler().setxAxisTickLabelsFormattingFunction(x -> {
      int i = (int) Math.round(x) - 1;
      return i >= 0 && i < PERCENTILES.size() && Math.abs(x - (i + 1)) < 1e-9
          ? PERCENTILES.get(i) : "";
    });
    List<PhaseResult> phases = new ArrayList<>();
    phases.add(result.testing());
    phases.addAll(result.runs());
    for (PhaseResult p : phases) {
      List<PhaseSample> s = p.samples();
      List<Double> tx = new ArrayList<>();
      List<Double> ty = new ArrayList<>();
      for (int i = 0; i + window <= s.size(); i += window) {
        long n = 0;
        for (int j = i; j < i + window; j++) {
          n += s.get(j).completed();
        }
        tx.add((double) i + window);
        ty.add((double) n / window);
      }
      if (!tx.isEmpty()) {
        tput.addSeries(p.name(), tx, ty).setMarker(SeriesMarkers.NONE);
      }
      List<Double> cx = new ArrayList<>();
      List<Double> cy = new ArrayList<>();
      for (PhaseSample x : s) {
        cx.add((double) x.second());
        cy.add((double) x.diskComponents());
      }
      if (!cx.isEmpty()) {
        comps.addSeries(p.name(), cx, cy).setMarker(SeriesMarkers.NONE);
        List<Double> py = new ArrayList<>();
        for (PhaseSample x : s) {
          py.add(x.pendingMergeBytes() / 1048576.0);
        }
        pending.addSeries(p.name(), cx, py).setMarker(SeriesMarkers.NONE);
      }
      if (p.verdict() != null) {
        fitLine(comps, p.name(), p.verdict().components(), 1);
        fitLine(pending, p.name(), p.verdict().pendingMergeBytes(), 1048576.0);
      }
      if (p.writeLatency() != null && p.writeLatency().count() > 0) {
        for (boolean processing : new boolean[] {false, true}) {
          Latency l = processing ? p.processingLatency() : p.writeLatency();
          lat.addSeries(p.name() + (processing ? " processing" : " write"),
              List.of(1.0, 2.0, 3.0, 4.0, 5.0),
              List.of(floor(l.p50()), floor(l.p90()), floor(l.p99()), floor(l.p999()),
                  floor(l.max())));
        }
      }
    }
    List<Path> files = new ArrayList<>();
    files.add(save(tput, dir.resolve(THROUGHPUT)));
    files.add(save(comps, dir.resolve(COMPONENTS)));
    files.add(save(pending, dir.resolve(PENDING)));
    if (!lat.getSeriesMap().isEmpty()) {
      files.add(save(lat, dir.resolve(LATENCY)));
    }
    return files;
  }

  /** Draws a phase's fitted trend over its second half, labelled with the verdict's test. */
  static void fitLine(XYChart chart, String phase, Trend t, double scale) {
    if (t.points() < 3) {
      return;
    }
    chart.addSeries(phase + " trend (" + (t.upward() ? "upward" : "not upward") + ")",
        List.of((double) t.fromSecond(), (double) t.toSecond()),
        List.of(t.at(t.fromSecond()) / scale, t.at(t.toSecond()) / scale))
        .setMarker(SeriesMarkers.NONE);
  }

  /** A logarithmic axis cannot show 0; latencies below a microsecond are drawn at 0.001 ms. */
  private static double floor(double ms) {
    return Math.max(ms, 0.001);
  }

  private static Path save(Chart<?, ?> chart, Path file) throws IOException {
    String name = file.toString();
    BitmapEncoder.saveBitmap(chart, name.substring(0, name.length() - 4),
        BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
