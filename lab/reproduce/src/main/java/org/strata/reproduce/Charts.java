package org.strata.reproduce;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The charts of reproduction reports, drawn with XChart as PNG files. */
public final class Charts {
  private Charts() {}

  /** A named series of (x, y) points. */
  public record Series(String name, List<Double> x, List<Double> y) {}

  /**
   * Lines (or points when {@code points}) on one XY chart.
   *
   * @param log whether both axes are logarithmic
   */
  public static void xy(Path file, String title, String xTitle, String yTitle,
      List<Series> series, boolean points, boolean log) throws IOException {
    XYChart c = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(xTitle)
        .yAxisTitle(yTitle).build();
    c.getStyler().setDefaultSeriesRenderStyle(points ? XYSeries.XYSeriesRenderStyle.Scatter
        : XYSeries.XYSeriesRenderStyle.Line);
    c.getStyler().setXAxisLogarithmic(log);
    c.getStyler().setYAxisLogarithmic(log);
    for (Series s : series) {
      XYSeries added = c.addSeries(s.name(), s.x(), s.y());
      if (!points) {
        added.setMarker(SeriesMarkers.NONE);
      }
    }
    save(file, c);
  }

  /** Grouped bars: one group per category, one bar per series. */
  public static void bars(Path file, String title, String yTitle, List<String> categories,
      Map<String, List<Double>> series) throws IOException {
    CategoryChart c = new CategoryChartBuilder().width(800).height(500).title(title)
        .yAxisTitle(yTitle).build();
    for (Map.Entry<String, List<Double>> e : series.entrySet()) {
      c.addSeries(e.getKey(), categories, e.getValue());
    }
    BitmapEncoder.saveBitmap(c, strip(file), BitmapEncoder.BitmapFormat.PNG);
  }

  private static void save(Path file, XYChart c) throws IOException {
    BitmapEncoder.saveBitmap(c, strip(file), BitmapEncoder.BitmapFormat.PNG);
  }

  private static String strip(Path file) {
    String s = file.toString();
    if (!s.endsWith(".png")) {
      throw new IllegalArgumentException("a chart's file must end in .png: " + file);
    }
    return s.substring(0, s.length() - 4);
  }
}
