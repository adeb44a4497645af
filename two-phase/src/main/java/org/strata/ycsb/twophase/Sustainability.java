package org.strata.ycsb.twophase;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a running phase's arrival rate is sustainable (DESIGN section 7): only if its arrival
 * queue drained by the end of the drain, no write stall started in the second half of its arrivals,
 * and neither the disk-component count nor the pending merge bytes trends upward ({@link
 * Trend#upward()}) over that second half. A phase that passes for a short time may still fail
 * for a longer one; the verdict is about the phase that ran.
 */
public final class Sustainability {
  private Sustainability() {}

  /**
   * A verdict.
   *
   * @param sustainable true if every check passed
   * @param reasons the failed checks in words, or (when sustainable) what was checked
   * @param components the disk-component trend over the second half
   * @param pendingMergeBytes the pending-merge-bytes trend over the second half
   */
  public record Verdict(boolean sustainable, List<String> reasons, Trend components,
      Trend pendingMergeBytes) {
    public Verdict {
      reasons = List.copyOf(reasons);
    }

    /** {@code sustainable} or {@code unsustainable}. */
    public String word() {
      return sustainable ? "sustainable" : "unsustainable";
    }
  }

  /**
   * Judges a running phase from its per-second samples.
   *
   * @param samples the phase's samples (seconds 1..durationSeconds, then the drain)
   * @param durationSeconds seconds of arrivals
   * @param unfinished writes still queued when the drain ended
   * @param componentFloor the least rise of disk components that counts (e.g. 2)
   * @param pendingFloor the least rise of pending merge bytes that counts (e.g. one memory
   *     component's bytes)
   */
  public static Verdict judge(List<PhaseSample> samples, int durationSeconds, long unfinished,
      double componentFloor, double pendingFloor) {
    int half = durationSeconds / 2;
    List<Integer> x = new ArrayList<>();
    List<Double> comps = new ArrayList<>();
    List<Double> pending = new ArrayList<>();
    int firstStall = -1;
    long stallsStarted = 0;
    for (PhaseSample s : samples) {
      if (s.second() > half && s.second() <= durationSeconds) {
        x.add(s.second());
        comps.add((double) s.diskComponents());
        pending.add((double) s.pendingMergeBytes());
        if (s.stallsStarted() > 0) {
          stallsStarted += s.stallsStarted();
          if (firstStall < 0) {
            firstStall = s.second();
          }
        }
      }
    }
    Trend c = Trend.fit(x, comps, componentFloor);
    Trend p = Trend.fit(x, pending, pendingFloor);
    List<String> failed = new ArrayList<>();
    List<String> passed = new ArrayList<>();
    String window = String.format(Locale.ROOT, "seconds %d-%d", half + 1, durationSeconds);
    if (unfinished > 0) {
      failed.add(String.format(Locale.ROOT, "%,d writes were still queued when the drain ended",
          unfinished));
    } else {
      passed.add("the arrival queue drained");
    }
    if (stallsStarted > 0) {
      failed.add(String.format(Locale.ROOT, "%d write stall(s) started in the second half (%s),"
          + " the first in second %d", stallsStarted, window, firstStall));
    } else {
      passed.add("no write stall started in the second half (" + window + ")");
    }
    describe("disk components", c, "", 1, failed, passed);
    describe("pending merge bytes", p, " MB", 1 << 20, failed, passed);
    return new Verdict(failed.isEmpty(), failed.isEmpty() ? passed : failed, c, p);
  }

  private static void describe(String what, Trend t, String unit, double scale,
      List<String> failed, List<String> passed) {
    if (t.points() < 3) {
      passed.add(String.format(Locale.ROOT, "%s: too few seconds in the second half (%d) to fit"
          + " a trend, so none counts", what, t.points()));
      return;
    }
    String text = String.format(Locale.ROOT, "%s %s over the second half: fitted slope %.3g%s/s"
            + " (95%% interval %.3g to %.3g), fitted rise %.3g%s, range %.3g to %.3g%s",
        what, t.upward() ? "trend upward" : "do not trend upward", t.slope() / scale, unit,
        t.slopeLow() / scale, t.slopeHigh() / scale, t.rise() / scale, unit, t.min() / scale,
        t.max() / scale, unit);
    (t.upward() ? failed : passed).add(text);
  }
}
