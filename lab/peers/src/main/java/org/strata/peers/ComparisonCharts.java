package org.strata.peers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.strata.twophase.Latency;
import org.strata.twophase.PhaseResult;
import org.strata.twophase.PhaseSample;
import org.strata.twophase.TwoPhaseConfig;

/**
 * The comparison's PNG charts, every system on one set of axes: the running phase's write
 * throughput ({@code chart-window-seconds} windows), its disk components over time, and its write
 * latency percentiles (log scale).
 */
final class ComparisonCharts {
  static final String THROUGHPUT = "compare-throughput.png";
  static final String COMPONENTS = "compare-disk-components.png";
  static final String LATENCY = "compare-write-latency.png";
  private static final List<String> PERCENTILES = List.of("p50", "p90", "p99", "p99.9", "max");

  private ComparisonCharts() {}

  /** Writes the charts into {@code dir}; returns their file names. */
  static List<String> write(Path dir, TwoPhaseConfig config,
      List<CompareRunner.Outcome> outcomes) throws IOException {
    int window = config.chartWindowSeconds();
    XYChart tput = chart(config.name() + ": running-phase write throughput (" + window
        + " s windows)", "time (s)", "writes/s");
    XYChart comps = chart(config.name() + ": running-phase disk components", "time (s)",
        "disk components");
    XYChart lat = chart(config.name() + ": running-phase write latency", "percentile",
        "milliseconds (log scale)");
    lat.getStyler().setYAxisLogarithmic(true);
    lat.getStyler().setxAxisTickLabelsFormattingFunction(x -> {
      int i = (int) Math.round(x) - 1;
      return i >= 0 && i < PERCENTILES.size() && Math.abs(x - (i + 1)) < 1e-9
          ? PERCENTILES.get(i) : "";
    });
    for (CompareRunner.Outcome o : outcomes) {
      PhaseResult p = ComparisonReport.running(o);
      if (p == null) {
        continue;
      }
      String name = o.result().label();
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
        tput.addSeries(name, tx, ty).setMarker(SeriesMarkers.NONE);
      }
      List<Double> cx = new ArrayList<>();
      List<Double> cy = new ArrayList<>();
      for (PhaseSample x : s) {
        cx.add((double) x.second());
        cy.add((double) x.diskComponents());
      }
      if (!cx.isEmpty()) {
        comps.addSeries(name, cx, cy).setMarker(SeriesMarkers.NONE);
      }
      Latency l = p.writeLatency();
      if (l.count() > 0) {
        lat.addSeries(name, List.of(1.0, 2.0, 3.0, 4.0, 5.0), List.of(floor(l.p50()),
            floor(l.p90()), floor(l.p99()), floor(l.p999()), floor(l.max())));
      }
    }
    List<String> files = new ArrayList<>();
    save(tput, dir, THROUGHPUT, files);
    save(comps, dir, COMPONENTS, files);
    save(lat, dir, LATENCY, files);
    return files;
  }

  private static XYChart chart(String title, String x, String y) {
    XYChart c = new XYChartBuilder().width(1000).height(450).title(title).xAxisTitle(x)
        .yAxisTitle(y).build();
    c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    c.getStyler().setMarkerSize(0);
    return c;
  }

  private static double floor(double ms) {
    return Math.max(ms, 0.001);
  }

  private static void save(XYChart chart, Path dir, String file, List<String> files)
      throws IOException {
    if (chart.getSeriesMap().isEmpty()) {
      return;
    }
    String name = dir.resolve(file).toString();
    BitmapEncoder.saveBitmap(chart, name.substring(0, name.length() - 4),
        BitmapEncoder.BitmapFormat.PNG);
    files.add(file);
  }
}
