package org.strata.twophase;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a running phase's arrival rate is sustainable: only if its arrival queue drained by the
 * end of the drain, no write stall started in the second half of its arrivals, and neither the
 * disk-component count nor the pending merge bytes grows over that second half, judged over whole
 * merge cycles ({@link CycleJudgement}). When a series shows no whole cycle in the second half
 * and so cannot tell a long merge from growth, and nothing else failed, the phase is <em>too
 * short to judge</em>, and the reasons say by how much. A phase that passes for a short time may
 * still fail for a longer one; the verdict is about the phase that ran.
 */
public final class Sustainability {
  private Sustainability() {}

  /** What a phase showed. */
  public enum Outcome {
    SUSTAINABLE("sustainable"),
    UNSUSTAINABLE("unsustainable"),
    TOO_SHORT("too short to judge");

    private final String word;

    Outcome(String word) {
      this.word = word;
    }

    /** The outcome in the reports' words. */
    public String word() {
      return word;
    }
  }

  /**
   * A verdict.
   *
   * @param outcome sustainable, unsustainable or too short to judge
   * @param reasons the failed checks in words; or, when too short to judge, why; or, when
   *     sustainable, what was checked
   * @param componentCycles what the disk-component series showed
   * @param pendingCycles what the pending-merge-bytes series showed
   */
  public record Verdict(Outcome outcome, List<String> reasons, CycleJudgement componentCycles,
      CycleJudgement pendingCycles) {
    public Verdict {
      reasons = List.copyOf(reasons);
    }

    /** The disk-component line that decided (the second half's, or its whole cycles'). */
    public Trend components() {
      return componentCycles.trend();
    }

    /** The pending-merge-bytes line that decided. */
    public Trend pendingMergeBytes() {
      return pendingCycles.trend();
    }

    /** True only if every check passed. */
    public boolean sustainable() {
      return outcome == Outcome.SUSTAINABLE;
    }

    /** {@code sustainable}, {@code unsustainable} or {@code too short to judge}. */
    public String word() {
      return outcome.word();
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
    CycleJudgement c = CycleJudgement.judge("disk components", x, comps, componentFloor, "", 1);
    CycleJudgement p = CycleJudgement.judge("pending merge bytes", x, pending, pendingFloor, " MiB",
        1 << 20);
    List<String> failed = new ArrayList<>();
    List<String> passed = new ArrayList<>();
    List<String> undecided = new ArrayList<>();
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
    for (CycleJudgement j : List.of(c, p)) {
      (j.outcome() == CycleJudgement.Outcome.GROWING ? failed
          : j.outcome() == CycleJudgement.Outcome.TOO_SHORT ? undecided : passed).add(j.text());
    }
    Outcome outcome = !failed.isEmpty() ? Outcome.UNSUSTAINABLE
        : !undecided.isEmpty() ? Outcome.TOO_SHORT : Outcome.SUSTAINABLE;
    List<String> reasons = switch (outcome) {
      case UNSUSTAINABLE -> failed;
      case TOO_SHORT -> undecided;
      case SUSTAINABLE -> passed;
    };
    return new Verdict(outcome, reasons, c, p);
  }
}
