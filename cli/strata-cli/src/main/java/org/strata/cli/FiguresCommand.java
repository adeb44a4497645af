package org.strata.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.strata.lsm.config.NamedPlugin;
import org.strata.sim.merge.MergeSimulator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata figures}: draws, from the merge-policy simulator on uniform flushes, Mao et al.'s
 * Figure 2 (model write amplification against flushes for each bounded-depth policy, one chart per
 * k) and the write amplification / average component count trade-off (their Figure 3), as PNG.
 */
@Command(name = "figures", mixinStandardHelpOptions = true,
    description = "Draw Mao et al.'s Figure 2 (write amplification vs flushes, k = 5, 6, 7) and "
        + "the write amplification / component count trade-off from the simulator, as PNG files.")
final class FiguresCommand implements Callable<Integer> {
  private static final List<String> POLICIES = List.of("min-latency", "binomial", "bigtable",
      "exploring");

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory.")
  Path out;

  @Option(names = "--flushes", defaultValue = "24000", paramLabel = "N",
      description = "Uniform flushes simulated (default ${DEFAULT-VALUE}, the paper's n).",
      converter = QuantityConverters.IntCount.class)
  int flushes;

  @Option(names = "--k", split = ",", defaultValue = "5,6,7", paramLabel = "k1,k2,...",
      description = "Depth bounds with a Figure 2 chart each.")
  List<Integer> ks;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if (flushes < 10) {
      throw new ParameterException(spec.commandLine(), "--flushes must be at least 10");
    }
    System.setProperty("java.awt.headless", "true");
    Files.createDirectories(out);
    PrintWriter w = spec.commandLine().getOut();
    int step = Math.max(1, flushes / 400);
    for (int k : ks) {
      XYChart chart = new XYChartBuilder().width(800).height(520)
          .title("Write amplification vs flushes, k = " + k + " (uniform flushes, model)")
          .xAxisTitle("flushes").yAxisTitle("write amplification (model)").build();
      chart.getStyler().setMarkerSize(0);
      for (String policy : POLICIES) {
        MergeSimulator sim = simulator(policy, k);
        List<Integer> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int t = 1; t <= flushes; t++) {
          sim.flush(1);
          if (t % step == 0 || t == flushes) {
            xs.add(t);
            ys.add(sim.checkpoint().modelWriteAmplification());
          }
        }
        chart.addSeries(policy, xs, ys).setMarker(SeriesMarkers.NONE);
      }
      Path file = out.resolve("mao-fig2-k" + k + ".png");
      BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
      w.println("wrote " + file);
    }
    XYChart trade = new XYChartBuilder().width(800).height(520)
        .title("Trade-off after " + flushes + " uniform flushes, k = 4..10 (model)")
        .xAxisTitle("write amplification (model, log scale)")
        .yAxisTitle("average component count").build();
    trade.getStyler().setXAxisLogarithmic(true);
    trade.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    for (String policy : POLICIES) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (int k : new int[] {4, 5, 6, 7, 8, 10}) {
        MergeSimulator sim = simulator(policy, k);
        for (int t = 0; t < flushes; t++) {
          sim.flush(1);
        }
        xs.add(sim.checkpoint().modelWriteAmplification());
        ys.add(sim.checkpoint().averageComponentCount());
      }
      trade.addSeries(policy, xs, ys);
    }
    Path file = out.resolve("mao-tradeoff.png");
    BitmapEncoder.saveBitmap(trade, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    w.println("wrote " + file);
    w.flush();
    return 0;
  }

  private static MergeSimulator simulator(String policy, int k) {
    return MergeSimulator.of(new NamedPlugin(policy,
        Map.of("num-components", Integer.toString(k))));
  }
}
