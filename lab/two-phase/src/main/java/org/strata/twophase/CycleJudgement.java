package org.strata.twophase;

import java.util.List;
import java.util.Locale;

/**
 * Whether one per-second series of a running phase (disk components, or pending merge bytes)
 * grows, judged over whole merge cycles so that the verdict does not hang on where one cycle
 * falls in a short window.
 *
 * <p>Both series move in merge cycles: flushes raise them and a merge's end (or its progress)
 * lowers them again. A cycle is an excursion above the series' low band (its minimum in the window
 * plus a tenth of its range) that comes back into it. The window is judged as follows, first rule
 * that applies:
 *
 * <ol>
 *   <li>The least-squares line over the whole window is not upward ({@link Trend#upward()}):
 *       the series does not grow.
 *   <li>The window ends in the low band: every cycle in it is whole; the line is refitted from the
 *       first to the last second in the low band, and that line decides.
 *   <li>The window ends inside a cycle that began after its last second in the low band. If whole
 *       cycles come before it and it has not risen above their peaks, it is one more cycle: the
 *       line over the whole cycles decides.
 *   <li>That last cycle falls (its own least-squares line slopes down): the work of that cycle
 *       is being done. If whole cycles come before it, the line over them decides; if none does,
 *       the window is <em>too short to judge</em>: one cycle began in it and had not ended, and
 *       the report says when it began and, at its rate of fall, about how many seconds more
 *       would see it end.
 *   <li>That last cycle rises. If it has lasted at least half of the window, it counts as growth
 *       (a merge cycle longer than that cannot be told from a backlog in this window, and the
 *       series grows through most of it: a backlog under a sawtooth of merges falls here too);
 *       if it began later, the window is too short to judge, and the report says since when it
 *       has risen.
 * </ol>
 *
 * @param outcome what the series shows
 * @param trend the line that decided (the whole window's, or the one over its whole cycles)
 * @param text the finding in words, for the report
 */
public record CycleJudgement(Outcome outcome, Trend trend, String text) {

  /** What a series shows over the window. */
  public enum Outcome {
    /** No growth over the window's whole cycles. */
    STEADY,
    /** Growth. */
    GROWING,
    /** A cycle began in the window and had not ended: the window cannot tell. */
    TOO_SHORT
  }

  /** The low band: the window's minimum plus this fraction of its range. */
  public static final double LOW_BAND = 0.1;
  /**
   * A rise that has not turned down counts as growth once it has lasted this share of the window.
   */
  public static final double GROWTH_SHARE = 0.5;

  /**
   * Judges {@code y} over seconds {@code x} (consecutive, ascending).
   *
   * @param what the series' name, for the text
   * @param floor the least rise that counts, in the series' unit ({@link Trend#floor()})
   * @param unit the unit's name after a number, e.g. {@code " MB"}, or empty
   * @param scale the series' values per unit (1, or 2^20 for MB)
   */
  public static CycleJudgement judge(String what, List<Integer> x, List<Double> y, double floor,
      String unit, double scale) {
    Trend whole = Trend.fit(x, y, floor);
    if (whole.points() < 3) {
      return new CycleJudgement(Outcome.STEADY, whole, String.format(Locale.ROOT, "%s: too few"
          + " seconds in the second half (%d) to fit a trend, so none counts", what,
          whole.points()));
    }
    if (!whole.upward()) {
      return new CycleJudgement(Outcome.STEADY, whole, line(what, whole, SECOND_HALF, "", unit,
          scale));
    }
    int n = y.size();
    double low = whole.min() + LOW_BAND * (whole.max() - whole.min());
    int firstLow = -1;
    int lastLow = -1;
    for (int i = 0; i < n; i++) {
      if (y.get(i) <= low) {
        firstLow = firstLow < 0 ? i : firstLow;
        lastLow = i;
      }
    }
    // The highest point between the first and the last second in the low band: above the band
    // if a whole cycle lies there.
    double earlierPeak = Double.NEGATIVE_INFINITY;
    for (int i = firstLow; i <= lastLow; i++) {
      earlierPeak = Math.max(earlierPeak, y.get(i));
    }
    boolean wholeCyclesBefore = earlierPeak > low;
    if (lastLow == n - 1) {
      return overCycles(what, x, y, floor, firstLow, lastLow, unit, scale, "");
    }
    // The window ends inside a cycle (or a rise) that began after second x[lastLow].
    int start = lastLow + 1;
    int peak = start;
    for (int i = start; i < n; i++) {
      if (y.get(i) >= y.get(peak)) {
        peak = i;
      }
    }
    double end = y.get(n - 1);
    int last = x.get(n - 1);
    Trend open = Trend.fit(x.subList(start, n), y.subList(start, n), 0);
    if (wholeCyclesBefore && y.get(peak) <= earlierPeak) {
      // One more tooth, no higher than those before it: judge the whole cycles before it.
      return overCycles(what, x, y, floor, firstLow, lastLow, unit, scale, String.format(
          Locale.ROOT, "; the cycle that began in second %d, no higher than those before it, had"
              + " not ended by second %d and is not counted", x.get(start), last));
    }
    if (n - start >= 2 && open.slope() < 0) {
      String falling = String.format(Locale.ROOT, "the cycle that began in second %d had fallen"
          + " from %s%s (second %d) to %s%s by second %d", x.get(start), num(y.get(peak) / scale),
          unit, x.get(peak), num(end / scale), unit, last);
      if (wholeCyclesBefore) {
        return overCycles(what, x, y, floor, firstLow, lastLow, unit, scale,
            "; " + falling + " and is not counted");
      }
      double fallPerSecond = -open.slope();
      long more = Math.round(Math.ceil((open.at(last) - low) / fallPerSecond));
      return new CycleJudgement(Outcome.TOO_SHORT, whole, String.format(Locale.ROOT, "%s: no"
          + " whole merge cycle in the second half (seconds %d-%d); %s, and"
          + " at that rate about %d s more would see it end", what, x.get(0), last, falling,
          Math.max(1, more)));
    }
    int risen = last - x.get(start) + 1;
    int window = last - x.get(0) + 1;
    if (risen >= GROWTH_SHARE * window) {
      return new CycleJudgement(Outcome.GROWING, whole, line(what, whole, SECOND_HALF,
          String.format(Locale.ROOT, "; it has risen without turning down since second %d (%d of"
              + " the %d seconds)", x.get(start), risen, window), unit, scale));
    }
    return new CycleJudgement(Outcome.TOO_SHORT, whole, String.format(Locale.ROOT, "%s: no"
        + " whole merge cycle in the second half: it rose from %s%s in second %d to %s%s by"
        + " second %d without turning down, %d s of the %d-second window, shorter than the %d s"
        + " that would count as"
        + " growth; a phase long enough to see that cycle end is needed", what,
        num(y.get(start - 1) / scale), unit, x.get(start - 1), num(end / scale), unit, last,
        risen, window, (int) Math.ceil(GROWTH_SHARE * window)));
  }

  /** The line from {@code from} to {@code to} (indexes), over whole cycles, decides. */
  private static CycleJudgement overCycles(String what, List<Integer> x, List<Double> y,
      double floor, int from, int to, String unit, double scale, String suffix) {
    Trend cycles = Trend.fit(x.subList(from, to + 1), y.subList(from, to + 1), floor);
    String over = String.format(Locale.ROOT, "over the second half's whole merge cycles"
        + " (seconds %d-%d)", x.get(from), x.get(to));
    if (cycles.points() < 3) {
      return new CycleJudgement(Outcome.STEADY, cycles, what + " " + over + ": too few seconds"
          + " to fit a trend, so none counts" + suffix);
    }
    return new CycleJudgement(cycles.upward() ? Outcome.GROWING : Outcome.STEADY, cycles,
        line(what, cycles, over, suffix, unit, scale));
  }

  private static final String SECOND_HALF = "over the second half";

  private static String line(String what, Trend t, String where, String suffix, String unit,
      double scale) {
    return String.format(Locale.ROOT, "%s %s %s: fitted slope %.3g%s/s"
            + " (95%% interval %.3g to %.3g), fitted rise %.3g%s, range %.3g to %.3g%s%s",
        what, t.upward() ? "trend upward" : "do not trend upward", where, t.slope() / scale, unit,
        t.slopeLow() / scale, t.slopeHigh() / scale, t.rise() / scale, unit, t.min() / scale,
        t.max() / scale, unit, suffix);
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.3g", v);
  }
}
