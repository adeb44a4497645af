package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sustainability verdict on constructed per-second series (no store, no clock: each sample's
 * second is given): unsustainable with a growing queue, a stall in the second half, a rising
 * component count, rising pending merge bytes or a sawtooth on a rising base; sustainable when
 * flat or a sawtooth, whatever cycle the window ends in; too short to judge when the window holds
 * no whole merge cycle (one late merge, one late rise). Seeded noise; each run prints its seed.
 */
class SustainabilityTest {
  private static final int DURATION = 120;
  private static final double MB = 1 << 20;
  private static final double FLOOR = 8 * MB;

  /** One phase's samples: components and pending bytes per second, stalls at given seconds. */
  private static List<PhaseSample> series(IntToDoubleFunction components,
      IntToDoubleFunction pending, List<Integer> stallSeconds, long seed) {
    return series(components, pending, stallSeconds, seed, 1);
  }

  /** As above with Gaussian noise of {@code noise} components and {@code noise} MB. */
  private static List<PhaseSample> series(IntToDoubleFunction components,
      IntToDoubleFunction pending, List<Integer> stallSeconds, long seed, double scale) {
    Random noise = new Random(seed);
    List<PhaseSample> out = new ArrayList<>();
    for (int s = 1; s <= DURATION + 5; s++) {
      long c = Math.max(0, Math.round(components.applyAsDouble(s)
          + scale * noise.nextGaussian()));
      long p = Math.max(0, Math.round(pending.applyAsDouble(s)
          + scale * noise.nextGaussian() * MB));
      boolean stall = stallSeconds.contains(s);
      out.add(new PhaseSample("running", s, 1000, 1000, 0, c, stall, stall ? 0.2 : 0,
          1 << 20, 1 << 20, 1, 1, stall ? 1 : 0, p, 0.01, 0));
    }
    return out;
  }

  private static Sustainability.Verdict judge(List<PhaseSample> s, long unfinished) {
    return Sustainability.judge(s, DURATION, unfinished, 2, FLOOR);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void aFlatPhaseIsSustainable(long seed) {
    System.out.println("seed " + seed);
    Sustainability.Verdict v = judge(series(s -> 30, s -> 40 * MB, List.of(5, 50), seed), 0);
    assertThat(v.sustainable()).as("%s", v.reasons()).isTrue();
    assertThat(v.components().upward()).isFalse();
    assertThat(v.pendingMergeBytes().upward()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void aSawtoothOfMergesIsSustainable(long seed) {
    System.out.println("seed " + seed);
    int phase = new Random(seed).nextInt(10);
    // Components climb from 10 to 19 and a merge drops them back, every 10 s; pending merge
    // bytes climb to 200 MB and fall to 0 on the same beat.
    Sustainability.Verdict v = judge(series(s -> 10 + (s + phase) % 10,
        s -> 20 * MB * ((s + phase) % 10), List.of(), seed), 0);
    assertThat(v.sustainable()).as("%s", v.reasons()).isTrue();
  }

  @org.junit.jupiter.api.Test
  void aSlowSawtoothWhoseFittedSlopeIsSignificantIsStillSustainable() {
    // Two 30 s periods in the 60 s second half, no noise, aligned so the fitted slope is
    // significantly positive; its rise is still under half the range, which a growing series
    // would (nearly) span.
    Sustainability.Verdict v = judge(series(s -> 10 + s % 30, s -> 9 * MB * (s % 30), List.of(),
        0, 0), 0);
    assertThat(v.components().slopeLow()).isPositive();
    assertThat(v.pendingMergeBytes().slopeLow()).isPositive();
    assertThat(v.sustainable()).as("%s", v.reasons()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void aQueueLeftAfterTheDrainIsUnsustainable(long seed) {
    System.out.println("seed " + seed);
    Sustainability.Verdict v = judge(series(s -> 30, s -> 40 * MB, List.of(), seed), 12_345);
    assertThat(v.sustainable()).isFalse();
    assertThat(v.reasons()).singleElement().asString().contains("12,345 writes were still"
        + " queued");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void aStallStartingInTheSecondHalfIsUnsustainable(long seed) {
    System.out.println("seed " + seed);
    Sustainability.Verdict v = judge(series(s -> 30, s -> 40 * MB, List.of(10, 97), seed), 0);
    assertThat(v.sustainable()).isFalse();
    assertThat(v.reasons()).singleElement().asString().contains("the first in second 97");
    // A stall in the first half alone does not count.
    assertThat(judge(series(s -> 30, s -> 40 * MB, List.of(10, 60), seed), 0).sustainable())
        .isTrue();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void risingComponentsAreUnsustainable(long seed) {
    System.out.println("seed " + seed);
    // 56 to 109 components over the phase, as partitioned leveling did at 95% (issue 13).
    Sustainability.Verdict v = judge(series(s -> 56 + 53.0 * s / DURATION, s -> 40 * MB,
        List.of(), seed), 0);
    assertThat(v.sustainable()).isFalse();
    assertThat(v.components().upward()).isTrue();
    assertThat(v.pendingMergeBytes().upward()).isFalse();
    assertThat(v.reasons()).singleElement().asString().startsWith("disk components trend"
        + " upward");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void risingPendingMergeBytesAreUnsustainable(long seed) {
    System.out.println("seed " + seed);
    // A sawtooth of components on top of a backlog that grows by 5 MB a second.
    Sustainability.Verdict v = judge(series(s -> 10 + s % 10, s -> 5 * MB * s, List.of(), seed),
        0);
    assertThat(v.sustainable()).isFalse();
    assertThat(v.pendingMergeBytes().upward()).isTrue();
    assertThat(v.components().upward()).isFalse();
    assertThat(v.reasons()).singleElement().asString().startsWith("pending merge bytes trend"
        + " upward");
  }

  @org.junit.jupiter.api.Test
  void aRiseBelowFivePercentOfTheMeanDoesNotCount() {
    // 1,000 components gaining 30 over the second half, no noise: significant, spanning its
    // range and far above the floor, but 3% of the level; 80 (8%) counts.
    Sustainability.Verdict small = judge(series(s -> 1000 + (s > 60 ? (s - 60) / 2.0 : 0),
        s -> 0, List.of(), 0, 0), 0);
    assertThat(small.components().slopeLow()).isPositive();
    assertThat(small.components().upward()).isFalse();
    Sustainability.Verdict large = judge(series(s -> 1000 + (s > 60 ? (s - 60) * 4 / 3.0 : 0),
        s -> 0, List.of(), 0, 0), 0);
    assertThat(large.components().upward()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void aRiseBelowTheFloorDoesNotCount(long seed) {
    System.out.println("seed " + seed);
    // One component more over the second half, no noise: significant and spanning the range,
    // but below the 2-component floor.
    Sustainability.Verdict v = judge(series(s -> 4 + (s > 60 ? (s - 60) / 60.0 : 0),
        s -> 0, List.of(), seed, 0), 0);
    assertThat(v.components().slopeLow()).isPositive();
    assertThat(v.components().rise()).isLessThan(2);
    assertThat(v.components().upward()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void oneLateMergeStillRunningIsTooShortToJudge(long seed) {
    System.out.println("seed " + seed);
    // The README's quick run: nothing pending until one merge is scheduled late in the phase
    // (second 100 of 120), its pending bytes falling from then to the end. The least-squares line
    // over the second half calls that upward; no whole merge cycle lies in the window.
    Sustainability.Verdict v = judge(series(s -> 30, s -> s < 100 ? 0 : (200 - 5 * (s - 100)) * MB,
        List.of(), seed), 0);
    assertThat(Trend.fit(seconds(61, 120), values(61, 120, s -> s < 100 ? 0 : 200 - 5 * (s - 100)),
        8).upward()).as("the old rule's reading").isTrue();
    assertThat(v.outcome()).as("%s", v.reasons()).isEqualTo(Sustainability.Outcome.TOO_SHORT);
    assertThat(v.sustainable()).isFalse();
    assertThat(v.word()).isEqualTo("too short to judge");
    // 100 MB left at second 120, falling 5 MB/s: about 20 s more (less the low band).
    assertThat(v.reasons()).singleElement().asString().startsWith("pending merge bytes: no whole"
        + " merge cycle").contains("began in second 100").containsPattern("about 1[6-9] s more");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void aLateRiseThatHasNotTurnedDownIsTooShortToJudge(long seed) {
    System.out.println("seed " + seed);
    // Components flat at 20 until second 100, then one more every 2 s to the end (a long merge
    // under way while flushes arrive): 20 s of a 60 s window.
    Sustainability.Verdict v = judge(series(s -> s < 100 ? 20 : 20 + (s - 100) / 2.0,
        s -> 40 * MB, List.of(), seed, 0.3), 0);
    assertThat(v.outcome()).as("%s", v.reasons()).isEqualTo(Sustainability.Outcome.TOO_SHORT);
    assertThat(v.reasons()).singleElement().asString().startsWith("disk components: no whole"
        + " merge cycle").contains("without turning down");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void aSawtoothWhoseLastCycleIsUnfinishedIsJudgedOnItsWholeCycles(long seed) {
    System.out.println("seed " + seed);
    // Pending bytes: a merge of 200 MB every 25 s, worked off at 10 MB/s (20 s), then 5 s with
    // nothing pending; the phase ends 10 s into a cycle.
    IntToDoubleFunction cycle = s -> {
      int at = (s - 61 + 25 * 10) % 25;
      return at < 20 ? (200 - 10 * at) * MB : 0;
    };
    Sustainability.Verdict v = judge(series(s -> 30, cycle, List.of(), seed), 0);
    assertThat(v.outcome()).as("%s", v.reasons()).isEqualTo(Sustainability.Outcome.SUSTAINABLE);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void aSawtoothOnARisingBaseIsUnsustainable(long seed) {
    System.out.println("seed " + seed);
    // Each merge cycle leaves more behind: pending bytes fall back only to a level that grows by
    // 3 MB a second, the backlog under the teeth.
    Sustainability.Verdict v = judge(series(s -> 30, s -> (3 * s + 20 * ((s % 10))) * MB,
        List.of(), seed), 0);
    assertThat(v.outcome()).as("%s", v.reasons()).isEqualTo(
        Sustainability.Outcome.UNSUSTAINABLE);
    assertThat(v.reasons()).singleElement().asString().startsWith("pending merge bytes trend"
        + " upward");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 1234})
  void aStallDecidesEvenWhenTheWindowIsTooShortForTheSeries(long seed) {
    System.out.println("seed " + seed);
    Sustainability.Verdict v = judge(series(s -> 30, s -> s < 100 ? 0 : (200 - 5 * (s - 100)) * MB,
        List.of(110), seed), 0);
    assertThat(v.outcome()).isEqualTo(Sustainability.Outcome.UNSUSTAINABLE);
  }

  private static List<Integer> seconds(int from, int to) {
    List<Integer> out = new ArrayList<>();
    for (int s = from; s <= to; s++) {
      out.add(s);
    }
    return out;
  }

  private static List<Double> values(int from, int to, IntToDoubleFunction f) {
    List<Double> out = new ArrayList<>();
    for (int s = from; s <= to; s++) {
      out.add(f.applyAsDouble(s));
    }
    return out;
  }
}
