package org.strata.cli;

import java.awt.BasicStroke;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.strata.sim.des.DesPhaseResult;
import org.strata.sim.des.LatencySummary;
import org.strata.sim.des.SecondSample;

/**
 * The charts of {@code strata des --chart}: instantaneous write throughput (30 s windows, as in
 * the paper), disk components over time, and write-latency percentiles on a log scale (as the
 * two-phase report draws them), one series per phase run. Every series stays visible where runs
 * coincide: each has its own colour, dash pattern and width, the first the widest, so a run drawn
 * later over an earlier one leaves it showing at the sides. Axes start at zero and have at most
 * about one tick label per 100 pixels.
 */
final class DesCharts {
  private static final int WINDOW = 30;
  private static final List<String> PERCENTILES = List.of("p50", "p90", "p99", "p99.9", "max");
  private static final BasicStroke[] LINES = {SeriesLines.SOLID, SeriesLines.DASH_DASH,
      SeriesLines.DOT_DOT, SeriesLines.DASH_DOT};
  private static final float[] WIDTHS = {3.5f, 2.5f, 2f, 1.5f};
  /** One colour per run, the same on every chart (the first run is often a testing phase). */
  private static final java.awt.Color[] COLOURS = {new java.awt.Color(0x1f77b4),
      new java.awt.Color(0xff7f0e), new java.awt.Color(0x2ca02c), new java.awt.Color(0xd62728),
      new java.awt.Color(0x9467bd), new java.awt.Color(0x8c564b)};

  /** Chart files, after the prefix. */
  static final String THROUGHPUT = "-throughput.png";
  static final String COMPONENTS = "-components.png";
  static final String LATENCY = "-latency.png";

  private DesCharts() {}

  /** A phase run and the name of its series. */
  record Labelled(String label, DesPhaseResult result) {}

  /** Writes {@code prefix-throughput.png}, {@code -components.png} and {@code -latency.png}. */
  static List<Path> write(Path dir, String prefix, String title, List<Labelled> labelled)
      throws IOException {
    Files.createDirectories(dir);
    List<Path> files = new ArrayList<>();
    for (Map.Entry<String, XYChart> e : charts(title, labelled).entrySet()) {
      Path file = dir.resolve(prefix + e.getKey());
      BitmapEncoder.saveBitmap(e.getValue(), file.toString(), BitmapEncoder.BitmapFormat.PNG);
      files.add(file);
    }
    return files;
  }

  /** The charts by file suffix; the latency chart only if a run had arrivals. */
  static Map<String, XYChart> charts(String title, List<Labelled> labelled) {
    XYChart tput = chart(title + ": write throughput (30 s windows)", "time (s)", "writes/s");
    XYChart comps = chart(title + ": disk components", "time (s)", "components");
    XYChart lat = chart(title + ": write latency percentiles", "percentile",
        "milliseconds (log scale)");
    lat.getStyler().setYAxisLogarithmic(true);
    lat.getStyler().setYAxisMin(null);
    lat.getStyler().setXAxisDecimalPattern(null);
    lat.getStyler().setxAxisTickLabelsFormattingFunction(x -> {
      int i = (int) Math.round(x) - 1;
      return i >= 0 && i < PERCENTILES.size() && Math.abs(x - (i + 1)) < 1e-9
          ? PERCENTILES.get(i) : "";
    });
    lat.getStyler().setXAxisMin(null);
    lat.getStyler().setXAxisTickMarkSpacingHint(74); // the default: a tick at each percentile
    int index = 0;
    for (Labelled one : labelled) {
      DesPhaseResult r = one.result();
      String name = one.label();
      List<SecondSample> s = r.series();
      List<Double> tx = new ArrayList<>();
      List<Double> ty = new ArrayList<>();
      for (int i = 0; i + WINDOW <= s.size(); i += WINDOW) {
        long n = 0;
        for (int j = i; j < i + WINDOW; j++) {
          n += s.get(j).completed();
        }
        tx.add((double) i + WINDOW);
        ty.add((double) n / WINDOW);
      }
      if (!tx.isEmpty()) {
        style(tput.addSeries(name, tx, ty), index, tx.size());
      }
      List<Double> cx = new ArrayList<>();
      List<Double> cy = new ArrayList<>();
      int step = Math.max(1, s.size() / 1500);
      for (int i = 0; i < s.size(); i += step) {
        cx.add((double) s.get(i).second() + 1);
        cy.add((double) s.get(i).diskComponents());
      }
      if (!cx.isEmpty()) {
        style(comps.addSeries(name, cx, cy), index, cx.size());
      }
      if (r.arrivalRate() > 0) {
        LatencySummary l = r.writeLatency();
        XYSeries ls = lat.addSeries(name, List.of(1.0, 2.0, 3.0, 4.0, 5.0),
            List.of(ms(l.p50()), ms(l.p90()), ms(l.p99()), ms(l.p999()), ms(l.max())));
        style(ls, index, 5);
        ls.setMarker(SeriesMarkers.CIRCLE);
      }
      index++;
    }
    Map<String, XYChart> charts = new LinkedHashMap<>();
    charts.put(THROUGHPUT, tput);
    charts.put(COMPONENTS, comps);
    if (!lat.getSeriesMap().isEmpty()) {
      charts.put(LATENCY, lat);
    }
    return charts;
  }

  private static XYChart chart(String title, String x, String y) {
    XYChart c = new XYChartBuilder().width(900).height(450).title(title).xAxisTitle(x)
        .yAxisTitle(y).build();
    c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    c.getStyler().setMarkerSize(6);
    // Plain numbers (1,100,000 s, not 1.1E6), from zero, with room for each tick label.
    c.getStyler().setXAxisDecimalPattern("#,##0");
    c.getStyler().setYAxisDecimalPattern("#,##0.###");
    c.getStyler().setXAxisMin(0.0);
    c.getStyler().setYAxisMin(0.0);
    c.getStyler().setXAxisTickMarkSpacingHint(100);
    return c;
  }

  /** Series {@code index}'s dash pattern and width; a series of one point gets a marker. */
  private static void style(XYSeries s, int index, int points) {
    s.setLineColor(COLOURS[index % COLOURS.length]);
    s.setMarkerColor(COLOURS[index % COLOURS.length]);
    s.setLineStyle(LINES[index % LINES.length]);
    s.setLineWidth(WIDTHS[Math.min(index, WIDTHS.length - 1)]);
    s.setMarker(points == 1 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
  }

  /** Seconds as milliseconds, at least 0.001 so that a log axis can show it. */
  private static double ms(double seconds) {
    return Math.max(seconds * 1000, 0.001);
  }
}
