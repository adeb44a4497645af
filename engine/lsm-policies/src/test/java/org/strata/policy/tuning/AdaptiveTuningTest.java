package org.strata.policy.tuning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The window and hysteresis of the adaptive decision, driven by counts. */
class AdaptiveTuningTest {
  static final LsmShape SHAPE = new LsmShape(Math.pow(2, 26), 32, 512, 10, 1, 1);

  private static AdaptiveTuning leveling(long window, double margin) {
    return new AdaptiveTuning(window, margin, Double.POSITIVE_INFINITY, 16, 10, 1, 1);
  }

  @Test
  void decidesOnlyWhenTheWindowCloses() {
    AdaptiveTuning a = leveling(1000, 0.05);
    assertThat(a.record(SHAPE, 999, 0, 0)).isEmpty();
    Optional<AdaptiveTuning.Change> c = a.record(SHAPE, 1, 0, 0);
    assertThat(c).isPresent();
    assertThat(c.get().newCost()).isLessThan(c.get().oldCost());
    // write-only: the model moves away from leveling at T = 10 towards more runs per level
    assertThat(a.k() > 1 || a.t() != 10).isTrue();
  }

  @Test
  void followsAShiftFromWritesToLookupsAndBack() {
    AdaptiveTuning a = leveling(100, 0.05);
    AdaptiveTuning.Change write = a.record(SHAPE, 100, 0, 0).orElseThrow();
    AdaptiveTuning.Change read = a.record(SHAPE, 1, 0, 99).orElseThrow();
    assertThat(read.k() * read.z()).isLessThan(write.k() * write.z());
    assertThat(a.record(SHAPE, 100, 0, 0)).isPresent();
  }

  @Test
  void sameMixTwiceChangesOnce() {
    AdaptiveTuning a = leveling(100, 0.05);
    assertThat(a.record(SHAPE, 90, 0, 10)).isPresent();
    assertThat(a.record(SHAPE, 90, 0, 10)).isEmpty();
  }

  @Test
  void theMarginHoldsOffSmallGains() {
    AdaptiveTuning eager = leveling(100, 0);
    AdaptiveTuning.Change c = eager.record(SHAPE, 50, 0, 50).orElseThrow();
    double gain = 1 - c.newCost() / c.oldCost();
    AdaptiveTuning strict = leveling(100, Math.min(0.99, gain + 0.01));
    assertThat(strict.record(SHAPE, 50, 0, 50)).isEmpty();
    assertThat(strict.t()).isEqualTo(10);
  }

  @Test
  void refusesBadSettings() {
    assertThatThrownBy(() -> leveling(0, 0.1)).hasMessageContaining("window-ops");
    assertThatThrownBy(() -> leveling(10, 1.0)).hasMessageContaining("margin");
    assertThatThrownBy(() -> leveling(10, 0.1).resume(4, 4, 1)).hasMessageContaining("K = 4");
  }

  @Test
  void zeroResultLookupsAreCountedApartFromExistingOnes() {
    AdaptiveTuning a = leveling(100, 0);
    a.count(10, 90, 0);
    assertThat(a.windowClosed()).isTrue();
    a.closeWindow(SHAPE).ifPresent(c -> {
      assertThat(c.mix().zeroResultLookups()).isEqualTo(0.9);
      assertThat(c.mix().existingLookups()).isZero();
    });
    assertThat(a.windowClosed()).isFalse();
    assertThatThrownBy(() -> a.closeWindow(SHAPE)).hasMessageContaining("0 of 100");
  }

  @Test
  void aResumedDesignIsTheOneLaterDecisionsStartFrom() {
    AdaptiveTuning a = leveling(100, 0.05);
    AdaptiveTuning.Change write = a.record(SHAPE, 100, 0, 0).orElseThrow();
    AdaptiveTuning b = leveling(100, 0.05);
    b.resume(write.t(), write.k(), write.z());
    assertThat(b.record(SHAPE, 100, 0, 0)).isEmpty(); // already the write-heavy design
  }
}
