package org.strata.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.strata.sim.des.LatencySummary;
import org.strata.sim.des.DesPhaseResult;
import org.strata.sim.des.SecondSample;

/**
 * The charts of {@code strata des --chart}: instantaneous write throughput (30 s windows, as in
 * the paper), disk components over time, and write-latency percentiles, one series per phase run.
 */
final class DesCharts {
  private static final int WINDOW = 30;

  private DesCharts() {}

  /** A phase run and the name of its series. */
  record Labelled(String label, DesPhaseResult result) {}

  /** Writes {@code prefix-throughput.png}, {@code -components.png} and {@code -latency.png}. */
  static List<Path> write(Path dir, String prefix, String title, List<Labelled> labelled)
      throws IOException {
    Files.createDirectories(dir);
    List<Path> files = new ArrayList<>();
    XYChart tput = new XYChartBuilder().width(900).height(450).title(title
        + ": write throughput (30 s windows)").xAxisTitle("time (s)").yAxisTitle("writes/s")
        .build();
    XYChart comps = new XYChartBuilder().width(900).height(450).title(title
        + ": disk components").xAxisTitle("time (s)").yAxisTitle("components").build();
    for (XYChart c : List.of(tput, comps)) {
      c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      c.getStyler().setMarkerSize(0);
      // Plain numbers on the axes (1,100,000 s, not 1.1E6).
      c.getStyler().setXAxisDecimalPattern("#,##0");
      c.getStyler().setYAxisDecimalPattern("#,##0");
    }
    CategoryChart lat = new CategoryChartBuilder().width(900).height(450).title(title
        + ": write latency percentiles").xAxisTitle("percentile").yAxisTitle("milliseconds")
        .build();
    lat.getStyler().setYAxisDecimalPattern("#,##0.###");
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
        tput.addSeries(name, tx, ty).setMarker(SeriesMarkers.NONE);
      }
      List<Double> cx = new ArrayList<>();
      List<Double> cy = new ArrayList<>();
      int step = Math.max(1, s.size() / 1500);
      for (int i = 0; i < s.size(); i += step) {
        cx.add((double) s.get(i).second() + 1);
        cy.add((double) s.get(i).diskComponents());
      }
      comps.addSeries(name, cx, cy).setMarker(SeriesMarkers.NONE);
      if (r.arrivalRate() > 0) {
        LatencySummary l = r.writeLatency();
        lat.addSeries(name, List.of("p50", "p90", "p99", "p99.9", "max"),
            List.of(l.p50() * 1000, l.p90() * 1000, l.p99() * 1000, l.p999() * 1000,
                l.max() * 1000));
      }
    }
    files.add(save(tput, dir.resolve(prefix + "-throughput.png")));
    files.add(save(comps, dir.resolve(prefix + "-components.png")));
    if (!lat.getSeriesMap().isEmpty()) {
      files.add(save(lat, dir.resolve(prefix + "-latency.png")));
    }
    return files;
  }

  private static Path save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path file)
      throws IOException {
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
