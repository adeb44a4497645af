package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.StoreStats.StallTotals;

/** Stall causes in words, in the progress line and in report.md. */
class ReportWordsTest {
  private static PhaseSample sample(boolean stalled) {
    return new PhaseSample("testing", 10, 100, 100, 0, 7, stalled, stalled ? 0.9 : 0, 0, 0,
        Double.NaN, Double.NaN, stalled ? 1 : 0, 0, Double.NaN, 0);
  }

  private static String progressLine(PhaseSample s, String cause) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
    p.update("testing", 10, 60, s, cause);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void progressLineSaysWhyWritersStalled() {
    assertThat(progressLine(sample(true), "memoryFull")).contains("stalled: memory full")
        .doesNotContain("STALLED");
    assertThat(progressLine(sample(true), "constraint")).contains("stalled: component constraint");
    assertThat(progressLine(sample(true), null)).endsWith("  stalled\n");
    assertThat(progressLine(sample(false), null)).doesNotContain("stalled");
  }

  @Test
  void dominantCauseIsTheOneWithTheMostStalledTime() {
    Map<String, StallTotals> m = new LinkedHashMap<>();
    m.put("constraint", new StallTotals(40, 1.5));
    m.put("memoryFull", new StallTotals(3, 9.0));
    assertThat(StallWords.dominant(m)).isEqualTo("memoryFull");
    m.put("memoryFull", new StallTotals(0, 0));
    assertThat(StallWords.dominant(m)).isEqualTo("constraint");
    m.put("constraint", new StallTotals(0, 0));
    assertThat(StallWords.dominant(m)).isNull();
  }

  @Test
  void reportExplainsTheStallsAndWhatLimitedThem() {
    Map<String, StallTotals> m = new LinkedHashMap<>();
    m.put("constraint", new StallTotals(8, 0.3));
    m.put("memoryFull", new StallTotals(640, 99.1));
    String text = ReportWriter.stallCauses(648, 99.4, m, 20L << 20);
    assertThat(text).contains("Stalls by cause: component constraint 8 (0.3 s), memory full 640"
        + " (99.1 s).").contains("Most stalled time: memory full: every memory component was"
        + " full and writers waited for a flush to free one (flushes and merges share the I/O"
        + " budget of 20 MiB/s).");
    assertThat(ReportWriter.stallCauses(5, 1.0, Map.of(), 0))
        .contains("Stalls: 5 (1.0 s), not split by cause by this system.");
    assertThat(ReportWriter.stallCauses(0, 0, m, 0)).isEmpty();
  }
}
