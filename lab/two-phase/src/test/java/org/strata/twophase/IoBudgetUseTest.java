package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** I/O budget use from per-second samples with known bytes flushed and merged. */
class IoBudgetUseTest {
  private static PhaseSample second(int s, long flushed, long merged) {
    return new PhaseSample("testing", s, 0, 0, 0, 0, false, 0, flushed, merged, Double.NaN,
        Double.NaN, 0, 0, Double.NaN, 0);
  }

  @Test
  void countsOnlyTheWindowAndDividesByTheLimit() {
    List<PhaseSample> samples = new ArrayList<>();
    // Warm-up seconds 1-2 write a lot; they are outside the window.
    samples.add(second(1, 50_000_000, 50_000_000));
    samples.add(second(2, 50_000_000, 50_000_000));
    // Seconds 3-6: 4 MB flushed + 12 MB merged each = 16 MB/s.
    for (int s = 3; s <= 6; s++) {
      samples.add(second(s, 4_000_000, 12_000_000));
    }
    // A drain second after the window.
    samples.add(second(7, 99_000_000, 0));
    IoBudgetUse u = IoBudgetUse.of(samples, 2, 6, 20_000_000);
    assertThat(u.seconds()).isEqualTo(4);
    assertThat(u.bytesFlushed()).isEqualTo(16_000_000);
    assertThat(u.bytesMerged()).isEqualTo(48_000_000);
    assertThat(u.bytesPerSecond()).isEqualTo(16_000_000.0);
    assertThat(u.use()).isEqualTo(0.8);
    assertThat(u.json().at("/use").asDouble()).isEqualTo(0.8);
    assertThat(ReportWriter.ioBudgetWords(u)).contains("I/O budget use 0.80")
        .contains("seconds 3-6").contains("19.1 MiB/s limit");
  }

  @Test
  void bytesAdmittedAsWrittenReplaceTheCompletedOnesAndBothAreReported() {
    List<PhaseSample> samples = new ArrayList<>();
    // A 60 MB merge runs through seconds 1-4 but completes in second 5, outside the window.
    for (int s = 1; s <= 4; s++) {
      samples.add(second(s, 2_000_000, 0));
    }
    samples.add(second(5, 2_000_000, 60_000_000));
    IoBudgetUse completed = IoBudgetUse.of(samples, 0, 4, 20_000_000);
    assertThat(completed.countedAs()).isEqualTo("completed");
    assertThat(completed.use()).isEqualTo(0.1);
    assertThat(completed.json().has("useCountedAtCompletion")).isFalse();

    IoBudgetUse written = completed.withBudgetCounters(java.util.Map.of(
        "flushBytesAdmitted", 8_000_000L, "mergeBytesAdmitted", 64_000_000L, "waitNanos", 5L));
    assertThat(written.countedAs()).isEqualTo("written");
    assertThat(written.bytesFlushed()).isEqualTo(8_000_000);
    assertThat(written.bytesMerged()).isEqualTo(64_000_000);
    assertThat(written.use()).isEqualTo(0.9);
    assertThat(written.useCountedAtCompletion()).isEqualTo(0.1);
    assertThat(written.json().at("/useCountedAtCompletion").asDouble()).isEqualTo(0.1);
    assertThat(written.json().at("/budgetCounters/waitNanos").asLong()).isEqualTo(5);
    assertThat(ReportWriter.ioBudgetWords(written)).contains("I/O budget use 0.90")
        .contains("Counted as written").contains("completed in those seconds it is 0.10");

    // Counters without the admitted bytes (another system) leave the completed count in place.
    IoBudgetUse other = completed.withBudgetCounters(java.util.Map.of("waitNanos", 5L));
    assertThat(other.countedAs()).isEqualTo("completed");
    assertThat(other.use()).isEqualTo(0.1);
  }

  @Test
  void withoutALimitThereIsNoUse() {
    IoBudgetUse u = IoBudgetUse.of(List.of(second(1, 1000, 1000)), 0, 1, 0);
    assertThat(u.bytesPerSecond()).isEqualTo(2000.0);
    assertThat(u.use()).isNaN();
    assertThat(u.json().get("use").isNull()).isTrue();
    assertThat(ReportWriter.ioBudgetWords(u)).contains("no I/O limit");
  }
}
