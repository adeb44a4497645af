package org.strata.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.twophase.IoBudgetUse;

/**
 * The comparison report's note on a system whose own throttle bounded its background writes:
 * given when its writers waited in the throttle for at least half of the testing window and it
 * used under 90% of the budget, and not otherwise.
 */
class ThrottleNoteTest {
  private static final long MB = 1 << 20;

  /** A 50 s window of a 20 MB/s budget, {@code mb} MB written, the throttle held for {@code s}. */
  private static IoBudgetUse use(long mb, Double waitSeconds) {
    IoBudgetUse u = new IoBudgetUse(10, 60, 0, mb * MB, 20 * MB, IoBudgetUse.COMPLETED, 0,
        mb * MB, Map.of());
    return waitSeconds == null ? u : u.withBudgetCounters(Map.of(
        IoBudgetUse.FLUSH_BYTES_ADMITTED, 0L, IoBudgetUse.MERGE_BYTES_ADMITTED, mb * MB,
        ComparisonReport.HYRACKS_THROTTLE_WAIT, (long) (waitSeconds * 1e9)));
  }

  @Test
  void aThrottleThatHeldTheWritersWhileTheBudgetWentUnusedIsNamed() {
    // The Hyracks peer in compare-quick: 0.385 of the budget, 60.1 s in the throttle.
    String note = ComparisonReport.throttleNote(use(385, 60.1));
    assertThat(note).contains("0.39 of it used").contains("60.1 s (summed) of the 50 s window")
        .contains("throttle admitted less than the rate it was given");
  }

  @Test
  void noNoteWithoutTheCounterOrWhenTheBudgetWasUsedOrTheThrottleBarelyHeld() {
    assertThat(ComparisonReport.throttleNote(use(385, null))).isEmpty();
    assertThat(ComparisonReport.throttleNote(use(950, 48.0))).as("0.95 used").isEmpty();
    assertThat(ComparisonReport.throttleNote(use(385, 10.0))).as("10 s of 50").isEmpty();
  }
}
