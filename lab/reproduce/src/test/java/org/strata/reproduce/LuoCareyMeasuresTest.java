package org.strata.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.strata.sim.des.LatencySummary;
import org.strata.sim.des.DesPhaseResult;
import org.strata.sim.des.SecondSample;

/** The measures luo-carey's verdicts are computed from, on hand-made simulator results. */
class LuoCareyMeasuresTest {

  private static DesPhaseResult result(double p99Seconds, List<SecondSample> series) {
    LatencySummary latency = new LatencySummary(100, p99Seconds / 2, p99Seconds / 4,
        p99Seconds / 2, p99Seconds, p99Seconds, p99Seconds);
    return new DesPhaseResult("running", "fair", series.size(), 100, 1000, 100, latency, latency, 0,
        0, 0, 0, 0, 10, 5, 3, 0, 0, series, List.of());
  }

  /** {@code seconds} samples, completing {@code rate.applyAsLong(second)} writes each. */
  private static List<SecondSample> series(int seconds, java.util.function.IntToLongFunction rate,
      java.util.function.IntUnaryOperator components) {
    List<SecondSample> s = new ArrayList<>();
    for (int i = 0; i < seconds; i++) {
      s.add(new SecondSample(i, rate.applyAsLong(i), rate.applyAsLong(i), 0,
          components.applyAsInt(i), 0, 0, 0));
    }
    return s;
  }

  @Test
  void p99IsInSecondsAsTheSimulatorReportsIt() {
    assertThat(LuoCareyReproduction.p99(result(2.5, List.of()))).isEqualTo(2.5);
  }

  @Test
  void variationIsZeroForASteadyPhaseAndGrowsWithPauses() {
    DesPhaseResult steady = result(0, series(720, i -> 100, i -> 5));
    assertThat(LuoCareyReproduction.variation(steady)).isCloseTo(0, within(1e-12));
    // a pause of one minute in every five after the first sixth
    DesPhaseResult pausing = result(0, series(720, i -> (i / 60) % 5 == 4 ? 0 : 100, i -> 5));
    assertThat(LuoCareyReproduction.variation(pausing)).isGreaterThan(0.4);
  }

  @Test
  void earlyIsTheMeanOverTheFirstSixth() {
    DesPhaseResult r = result(0, series(600, i -> i < 100 ? 300 : 100, i -> 5));
    assertThat(LuoCareyReproduction.early(r)).isCloseTo(300, within(1e-9));
  }

  @Test
  void meanComponentsTakesThePartAsked() {
    DesPhaseResult rising =
        result(0, series(600, i -> 100, i -> i < 100 ? 10 : i >= 500 ? 40 : 20));
    assertThat(LuoCareyReproduction.meanComponents(rising, 0, 6)).isCloseTo(10, within(1e-9));
    assertThat(LuoCareyReproduction.meanComponents(rising, 5, 6)).isCloseTo(40, within(1e-9));
    assertThat(LuoCareyReproduction.meanComponents(rising, 0, 1)).isCloseTo(
        (100 * 10 + 400 * 20 + 100 * 40) / 600.0, within(1e-9));
  }
}
