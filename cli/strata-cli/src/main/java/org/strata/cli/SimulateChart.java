package org.strata.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.strata.sim.merge.MergeSimulator;

/**
 * {@code strata simulate --chart FILE.png}: write amplification (engine definition) and average
 * component count against flushes, one line per policy, on the same flushes; two charts side by
 * side in one PNG.
 */
final class SimulateChart {
  private SimulateChart() {}

  /** One policy's samples. */
  record Curve(String policy, List<MergeSimulator.Checkpoint> points) {}

  static void write(Path file, List<Curve> curves, long flushes) throws IOException {
    String name = file.getFileName().toString();
    if (!name.toLowerCase(java.util.Locale.ROOT).endsWith(".png")) {
      throw new IllegalArgumentException("--chart " + file + ": the file name must end in .png");
    }
    XYChart wa = chart("write amplification (" + flushes + " flushes)", "write amplification");
    XYChart count = chart("average component count", "components");
    for (Curve c : curves) {
      List<Double> x = c.points().stream().map(p -> (double) p.flushes()).toList();
      wa.addSeries(c.policy(), x, c.points().stream().map(
          MergeSimulator.Checkpoint::writeAmplification).toList()).setMarker(SeriesMarkers.NONE);
      count.addSeries(c.policy(), x, c.points().stream().map(
          MergeSimulator.Checkpoint::averageComponentCount).toList())
          .setMarker(SeriesMarkers.NONE);
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    String base = file.toString().substring(0, file.toString().length() - 4);
    BitmapEncoder.saveBitmap(List.of(wa, count), 1, 2, base, BitmapEncoder.BitmapFormat.PNG);
  }

  private static XYChart chart(String title, String yAxis) {
    XYChart c = new XYChartBuilder().width(700).height(450).title(title).xAxisTitle("flushes")
        .yAxisTitle(yAxis).build();
    c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    c.getStyler().setXAxisDecimalPattern("#,##0");
    return c;
  }
}
