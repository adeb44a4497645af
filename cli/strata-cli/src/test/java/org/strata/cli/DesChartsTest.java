package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.BasicStroke;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.strata.lsm.config.NamedPlugin;
import org.strata.sim.des.ArrivalProcess;
import org.strata.sim.des.DesPhaseResult;
import org.strata.sim.des.DesSetup;
import org.strata.sim.des.DiscreteEventSimulator;

/**
 * The {@code des} charts with three runs that coincide exactly (the worst case for overlap): each
 * chart has one series per run, each in its own dash pattern and a width that shrinks from the
 * first, so all stay visible; axes from zero with spaced tick labels; latency on a log scale.
 */
class DesChartsTest {
  @Test
  void everyRunStaysVisibleOnEveryChart() {
    DesSetup setup = new DesSetup(1_000_000L, 1024, 1280L << 10, 2, 10.0 * (1 << 20), 4096,
        1_000_000, "global", "asap", 4000, 0.8);
    DesPhaseResult run = DiscreteEventSimulator.of(setup, new NamedPlugin("tiering",
        Map.of("size-ratio", "3")), new NamedPlugin("greedy", Map.of()))
        .running(300, ArrivalProcess.constant(500));
    List<DesCharts.Labelled> three = List.of(new DesCharts.Labelled("a", run),
        new DesCharts.Labelled("b", run), new DesCharts.Labelled("c", run));
    Map<String, XYChart> charts = DesCharts.charts("t", three);
    assertThat(charts).containsOnlyKeys(DesCharts.THROUGHPUT, DesCharts.COMPONENTS,
        DesCharts.LATENCY);
    charts.forEach((name, chart) -> {
      Map<String, XYSeries> series = chart.getSeriesMap();
      assertThat(series).as(name).containsOnlyKeys("a", "b", "c");
      Set<String> patterns = new HashSet<>();
      float previous = Float.MAX_VALUE;
      for (String k : List.of("a", "b", "c")) {
        BasicStroke stroke = series.get(k).getLineStyle();
        patterns.add(java.util.Arrays.toString(stroke.getDashArray()));
        assertThat(series.get(k).getLineWidth()).as(name + " " + k).isLessThan(previous);
        previous = series.get(k).getLineWidth();
      }
      assertThat(patterns).as(name + ": one dash pattern per run").hasSize(3);
      assertThat(series.get("b").getLineColor()).as(name + ": one colour per run on every chart")
          .isEqualTo(charts.get(DesCharts.THROUGHPUT).getSeriesMap().get("b").getLineColor())
          .isNotEqualTo(series.get("a").getLineColor());
    });
    assertThat(charts.get(DesCharts.LATENCY).getStyler().isYAxisLogarithmic()).isTrue();
    for (String c : List.of(DesCharts.THROUGHPUT, DesCharts.COMPONENTS)) {
      assertThat(charts.get(c).getStyler().getXAxisTickMarkSpacingHint()).as(c)
          .isGreaterThanOrEqualTo(100);
      assertThat(charts.get(c).getStyler().getYAxisMin()).as(c).isEqualTo(0.0);
      assertThat(charts.get(c).getStyler().getXAxisMin()).as(c).isEqualTo(0.0);
    }
  }
}
