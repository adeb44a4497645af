package org.strata.twophase;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The stretches of a phase between changes of the merge policy's design (Strata's {@code
 * adaptive-fluid}, docs/adaptive.md), each with the workload it saw and what the tree did in it:
 * the report's table of design changes and their effect.
 */
final class DesignChanges {
  /**
   * One stretch of constant design.
   *
   * @param design {@code T=.. K=.. Z=..}
   * @param fromSecond the first second (end of the first sampled second) under it
   * @param toSecond the last second under it
   * @param writesPerSecond writes completed per second
   * @param queriesPerSecond queries completed per second
   * @param meanDiskComponents disk components, mean over the seconds
   * @param mergedPerFlushed bytes merges wrote per byte flushes wrote in the stretch (NaN if
   *     nothing was flushed)
   */
  record Stretch(String design, int fromSecond, int toSecond, double writesPerSecond,
      double queriesPerSecond, double meanDiskComponents, double mergedPerFlushed) {
    int seconds() {
      return toSecond - fromSecond + 1;
    }
  }

  private DesignChanges() {}

  /** The stretches of {@code samples} (one a second), or none if no sample names a design. */
  static List<Stretch> of(List<PhaseSample> samples) {
    List<Stretch> out = new ArrayList<>();
    int start = 0;
    for (int i = 1; i <= samples.size(); i++) {
      if (i == samples.size() || !samples.get(i).design().equals(samples.get(start).design())) {
        if (!samples.get(start).design().isEmpty()) {
          out.add(stretch(samples.subList(start, i)));
        }
        start = i;
      }
    }
    return out;
  }

  private static Stretch stretch(List<PhaseSample> s) {
    long writes = 0;
    long queries = 0;
    double components = 0;
    long flushed = 0;
    long merged = 0;
    for (PhaseSample x : s) {
      writes += x.completed();
      queries += x.queries();
      components += x.diskComponents();
      flushed += x.bytesFlushed();
      merged += x.bytesMerged();
    }
    int n = s.size();
    return new Stretch(s.get(0).design(), s.get(0).second(), s.get(n - 1).second(),
        (double) writes / n, (double) queries / n, components / n,
        flushed == 0 ? Double.NaN : (double) merged / flushed);
  }

  /** The markdown table of a phase's stretches; empty if its design never showed. */
  static String table(String phase, List<PhaseSample> samples) {
    List<Stretch> stretches = of(samples);
    if (stretches.isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%nDesign of the merge policy"
        + " during %s (%d change(s) in the phase; docs/adaptive.md):%n%n", phase,
        stretches.size() - 1));
    b.append("| seconds | design (T, K, Z) | writes/s | queries/s | disk components (mean) |"
        + " merge bytes per flush byte |\n|---|---|---:|---:|---:|---:|\n");
    for (Stretch s : stretches) {
      b.append(String.format(Locale.ROOT, "| %d-%d | %s | %,.0f | %,.0f | %.1f | %s |%n",
          s.fromSecond(), s.toSecond(), s.design(), s.writesPerSecond(), s.queriesPerSecond(),
          s.meanDiskComponents(), Double.isNaN(s.mergedPerFlushed()) ? "no flush"
              : String.format(Locale.ROOT, "%.2f", s.mergedPerFlushed())));
    }
    return b.toString();
  }
}
