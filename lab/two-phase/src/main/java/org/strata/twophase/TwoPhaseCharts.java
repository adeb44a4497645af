package org.strata.twophase;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG charts of a two-phase run: instantaneous write throughput (windows of {@code
 * chart-window-seconds}), disk components and pending merge bytes over time (with each running
 * phase's fitted trend line over its second half, the line the sustainability verdict tests), and
 * write and processing latency percentiles. Each phase has one colour on every chart (its
 * processing latency and fitted trends dashed); the throughput chart shades the testing phase's
 * warm-up, which the maximum excludes, and draws the maximum W and each running phase's arrival
 * rate as flat lines; a phase shorter than the chart window is drawn with one window of its
 * length.
 */
final class TwoPhaseCharts {
  static final String THROUGHPUT = "throughput.png";
  static final String COMPONENTS = "disk-components.png";
  static final String LATENCY = "latency.png";
  static final String PENDING = "pending-merge-bytes.png";
  static final String DESIGN = "design.png";
  /** The testing phase's warm-up band on the throughput chart (and its legend swatch). */
  static final Color WARMUP_FILL = new Color(0, 0, 0, 60);

  private static final List<String> PERCENTILES = List.of("p50", "p90", "p99", "p99.9", "max");

  /** One colour per phase, in phase order (testing first), the same on every chart. */
  private static final Color[] PHASE_COLOURS = {new Color(0x1f77b4), new Color(0xd62728),
      new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e), new Color(0x8c564b),
      new Color(0xe377c2), new Color(0x17becf), new Color(0xbcbd22), new Color(0x7f7f7f)};

  /** The colour of the {@code index}-th phase. */
  static Color colour(int index) {
    return PHASE_COLOURS[index % PHASE_COLOURS.length];
  }

  private TwoPhaseCharts() {}

  static List<Path> write(Path dir, TwoPhaseResult result) throws IOException {
    java.util.Map<String, XYChart> charts = charts(result);
    List<Path> files = new ArrayList<>();
    for (java.util.Map.Entry<String, XYChart> e : charts.entrySet()) {
      files.add(save(e.getValue(), dir.resolve(e.getKey())));
    }
    return files;
  }

  /** The charts of {@code result} by file name, in the order they are written. */
  static java.util.Map<String, XYChart> charts(TwoPhaseResult result) {
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
        .yAxisTitle("MiB").build();
    for (XYChart c : List.of(tput, comps, pending)) {
      c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      c.getStyler().setMarkerSize(0);
      c.getStyler().setYAxisMin(0.0); // levels read against zero, not against the lowest point
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
    double maxRate = 0;
    int longest = 0;
    // The phases' throughput lines are added after the band and the rate lines, so that they are
    // drawn on top of them (a running phase's line runs along its own arrival rate).
    List<Runnable> phaseLines = new ArrayList<>();
    for (int index = 0; index < phases.size(); index++) {
      PhaseResult p = phases.get(index);
      Color colour = colour(index);
      List<PhaseSample> s = p.samples();
      longest = Math.max(longest, s.size());
      // A phase shorter than the window is drawn with one window of its own length.
      int w = Math.max(1, Math.min(window, s.size()));
      List<Double> tx = new ArrayList<>();
      List<Double> ty = new ArrayList<>();
      for (int i = 0; i + w <= s.size(); i += w) {
        long n = 0;
        for (int j = i; j < i + w; j++) {
          n += s.get(j).completed();
        }
        tx.add((double) i + w);
        ty.add((double) n / w);
        maxRate = Math.max(maxRate, (double) n / w);
      }
      if (!tx.isEmpty()) {
        int seriesIndex = index;
        phaseLines.add(() -> {
          XYSeries series = tput.addSeries(p.name(), tx, ty);
          series.setLineColor(colour);
          series.setMarkerColor(colour);
          series.setMarker(tx.size() == 1 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
          series.setLineWidth(seriesIndex == 0 ? 2f : 2.5f);
        });
      }
      List<Double> cx = new ArrayList<>();
      List<Double> cy = new ArrayList<>();
      for (PhaseSample x : s) {
        cx.add((double) x.second());
        cy.add((double) x.diskComponents());
      }
      if (!cx.isEmpty()) {
        style(comps.addSeries(p.name(), cx, cy), colour, false, cx.size());
        List<Double> py = new ArrayList<>();
        for (PhaseSample x : s) {
          py.add(x.pendingMergeBytes() / 1048576.0);
        }
        style(pending.addSeries(p.name(), cx, py), colour, false, cx.size());
      }
      if (p.verdict() != null) {
        fitLine(comps, p.name(), p.verdict().componentCycles(), 1, colour);
        fitLine(pending, p.name(), p.verdict().pendingCycles(), 1048576.0, colour);
      }
      if (p.writeLatency() != null && p.writeLatency().count() > 0) {
        for (boolean processing : new boolean[] {false, true}) {
          Latency l = processing ? p.processingLatency() : p.writeLatency();
          XYSeries series = lat.addSeries(p.name() + (processing ? " processing" : " write"),
              List.of(1.0, 2.0, 3.0, 4.0, 5.0),
              List.of(floor(l.p50()), floor(l.p90()), floor(l.p99()), floor(l.p999()),
                  floor(l.max())));
          series.setLineColor(colour);
          series.setMarkerColor(colour);
          if (processing) {
            series.setLineStyle(SeriesLines.DASH_DASH);
          }
        }
      }
    }
    rateLines(tput, result, maxRate, Math.max(longest, 1));
    phaseLines.forEach(Runnable::run);
    java.util.Map<String, XYChart> charts = new java.util.LinkedHashMap<>();
    charts.put(THROUGHPUT, tput);
    charts.put(COMPONENTS, comps);
    charts.put(PENDING, pending);
    if (!lat.getSeriesMap().isEmpty()) {
      charts.put(LATENCY, lat);
    }
    XYChart design = designChart(result);
    if (design != null) {
      charts.put(DESIGN, design);
    }
    return charts;
  }

  /**
   * The running phases' design (T and K·Z as step lines, left axis) over time, with their writes
   * and queries per second in windows (right axis); null if no phase shows a design.
   */
  private static XYChart designChart(TwoPhaseResult result) {
    int window = result.config().chartWindowSeconds();
    XYChart c = new XYChartBuilder().width(1000).height(450)
        .title(result.config().name() + ": design of the merge policy and the workload ("
            + window + " s windows)").xAxisTitle("time (s)").yAxisTitle("T, K, Z").build();
    c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
    c.getStyler().setMarkerSize(0);
    c.setYAxisGroupTitle(1, "operations/s");
    c.getStyler().setYAxisGroupPosition(1, org.knowm.xchart.style.Styler.YAxisPosition.Right);
    int index = 0;
    for (PhaseResult p : result.runs()) {
      index++;
      List<PhaseSample> s = p.samples();
      if (DesignChanges.of(s).isEmpty()) {
        continue;
      }
      List<Double> x = new ArrayList<>();
      List<Double> t = new ArrayList<>();
      List<Double> k = new ArrayList<>();
      List<Double> z = new ArrayList<>();
      for (PhaseSample ps : s) {
        if (ps.design().isEmpty()) {
          continue;
        }
        String[] parts = ps.design().split(" ");
        x.add((double) ps.second());
        t.add(Double.parseDouble(parts[0].substring(2)));
        k.add(Double.parseDouble(parts[1].substring(2)));
        z.add(Double.parseDouble(parts[2].substring(2)));
      }
      String prefix = result.runs().size() > 1 ? p.name() + " " : "";
      // T, K and Z in three colours of the palette; later phases shift it
      style(c.addSeries(prefix + "T", x, t), colour(3 * index - 3), false, x.size());
      style(c.addSeries(prefix + "K", x, k), colour(3 * index - 2), true, x.size());
      XYSeries zs = c.addSeries(prefix + "Z", x, z);
      style(zs, colour(3 * index - 1), true, x.size());
      zs.setLineStyle(SeriesLines.DOT_DOT);
      int w = Math.max(1, Math.min(window, s.size()));
      List<Double> wx = new ArrayList<>();
      List<Double> writes = new ArrayList<>();
      List<Double> queries = new ArrayList<>();
      for (int i = 0; i + w <= s.size(); i += w) {
        long nw = 0;
        long nq = 0;
        for (int j = i; j < i + w; j++) {
          nw += s.get(j).completed();
          nq += s.get(j).queries();
        }
        wx.add((double) i + w);
        writes.add((double) nw / w);
        queries.add((double) nq / w);
      }
      if (!wx.isEmpty()) {
        XYSeries ws = c.addSeries(prefix + "writes/s", wx, writes);
        ws.setYAxisGroup(1);
        ws.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        style(ws, new Color(0x7f7f7f), false, wx.size());
        XYSeries qs = c.addSeries(prefix + "queries/s", wx, queries);
        qs.setYAxisGroup(1);
        qs.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        style(qs, new Color(0x9467bd), false, wx.size());
      }
    }
    return c.getSeriesMap().isEmpty() ? null : c;
  }

  /**
   * The testing phase's warm-up as a shaded band (excluded from W), the testing maximum W and each
   * running phase's arrival rate as flat dashed lines in the phase's colour.
   */
  private static void rateLines(XYChart tput, TwoPhaseResult result, double maxRate,
      int seconds) {
    double w = result.testing().throughput();
    double top = Math.max(maxRate, w) * 1.05;
    int warmup = result.config().testing().warmupSeconds();
    if (warmup > 0 && top > 0) {
      XYSeries band = tput.addSeries("testing warm-up (excluded from W)",
          List.of(0.0, (double) warmup), List.of(top, top));
      band.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
      band.setFillColor(WARMUP_FILL); // dark enough for the legend's swatch to show
      band.setLineColor(WARMUP_FILL);
      band.setMarker(SeriesMarkers.NONE);
    }
    if (w > 0) {
      XYSeries line = tput.addSeries(String.format(java.util.Locale.ROOT,
          "W = %,.0f writes/s (testing maximum)", w), List.of(0.0, (double) seconds),
          List.of(w, w));
      line.setLineColor(colour(0));
      line.setLineStyle(SeriesLines.DASH_DASH);
      line.setMarker(SeriesMarkers.NONE);
    }
    List<PhaseResult> runs = result.runs();
    for (int i = 0; i < runs.size(); i++) {
      PhaseResult r = runs.get(i);
      if (r.arrivalRate() <= 0) {
        continue;
      }
      String label = Double.isNaN(r.utilization()) ? "" : String.format(java.util.Locale.ROOT,
          " = %.2f W", r.utilization());
      XYSeries line = tput.addSeries(String.format(java.util.Locale.ROOT,
          "%s arrivals %,.0f/s%s", r.name(), r.arrivalRate(), label),
          List.of(0.0, (double) seconds), List.of(r.arrivalRate(), r.arrivalRate()));
      Color c = colour(i + 1);
      // the phase's own colour, lighter and dotted: its throughput line is drawn over it
      line.setLineColor(new Color(c.getRed(), c.getGreen(), c.getBlue(), 150));
      line.setLineStyle(SeriesLines.DOT_DOT);
      line.setLineWidth(1.5f);
      line.setMarker(SeriesMarkers.NONE);
    }
  }

  /** Colours a phase's series; a series of one point gets a marker so that it is drawn. */
  private static void style(XYSeries series, Color colour, boolean dashed, int points) {
    series.setLineColor(colour);
    series.setMarkerColor(colour);
    series.setMarker(points == 1 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
    if (dashed) {
      series.setLineStyle(SeriesLines.DASH_DASH);
    }
  }

  /** Draws a phase's fitted trend over its second half, labelled with the verdict's test. */
  static void fitLine(XYChart chart, String phase, CycleJudgement j, double scale, Color colour) {
    Trend t = j.trend();
    if (t.points() < 3 || j.outcome() == CycleJudgement.Outcome.TOO_SHORT) {
      return; // no line decided: the report says why the window was too short
    }
    style(chart.addSeries(phase + " trend (" + (t.upward() ? "upward" : "not upward") + ")",
        List.of((double) t.fromSecond(), (double) t.toSecond()),
        List.of(t.at(t.fromSecond()) / scale, t.at(t.toSecond()) / scale)), colour, true, 2);
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
