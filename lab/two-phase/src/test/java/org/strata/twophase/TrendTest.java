package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The least-squares fit and its confidence interval on exact data. */
class TrendTest {
  @Test
  void fitsALineExactly() {
    Trend t = Trend.fit(List.of(1, 2, 3, 4, 5), List.of(3.0, 5.0, 7.0, 9.0, 11.0), 0);
    assertThat(t.slope()).isCloseTo(2, within(1e-12));
    assertThat(t.intercept()).isCloseTo(1, within(1e-12));
    assertThat(t.slopeLow()).isCloseTo(2, within(1e-9));
    assertThat(t.rise()).isCloseTo(8, within(1e-12));
    assertThat(t.upward()).isTrue();
  }

  @Test
  void theIntervalWidensWithNoiseAndUsesStudentsT() {
    // Residuals +1, -1, +1, -1 around y = x: slope 0.6 (hand computed), s^2 = 4 / 3... checked
    // against the closed form SE = sqrt(SSR / (n - 2) / Sxx).
    List<Integer> x = List.of(1, 2, 3, 4);
    List<Double> y = List.of(2.0, 1.0, 4.0, 3.0);
    Trend t = Trend.fit(x, y, 0);
    assertThat(t.slope()).isCloseTo(0.6, within(1e-12));
    double ssr = 0;
    for (int i = 0; i < 4; i++) {
      double r = y.get(i) - (t.intercept() + 0.6 * x.get(i));
      ssr += r * r;
    }
    double se = Math.sqrt(ssr / 2 / 5.0);
    assertThat(t.slopeLow()).isCloseTo(0.6 - 4.303 * se, within(1e-9));
    assertThat(t.upward()).isFalse();
  }

  @Test
  void theCornishFisherQuantileMatchesTablesBeyondThirty() {
    assertThat(Trend.tQuantile975(40)).isCloseTo(2.021, within(0.001));
    assertThat(Trend.tQuantile975(60)).isCloseTo(2.000, within(0.001));
    assertThat(Trend.tQuantile975(120)).isCloseTo(1.980, within(0.001));
  }
}
