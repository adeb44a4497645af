package org.strata.policy.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/papers/iam.md#invariants, items 7 and 10: the analytic formulas and the (m, k) choice. */
class AmplificationModelTest {
  private static final double GB = 1e9;

  @Test
  void splitWriteAmplificationForTenAndFourLevels() {
    assertThat(AmplificationModel.splitWriteAmplification(10, 4)).isCloseTo(0.496, within(1e-9));
    assertThat(AmplificationModel.splitWriteAmplification(10, 5)).isCloseTo(0.4992,
        within(1e-9));
    assertThat(AmplificationModel.lsaWriteAmplification(10, 4)).isCloseTo(4.496, within(1e-9));
  }

  @Test
  void mixedAndMergingLevelWriteAmplification() {
    assertThat(AmplificationModel.mixedLevelWriteAmplification(10, 2)).isCloseTo(3.5,
        within(1e-9));
    assertThat(AmplificationModel.mixedLevelWriteAmplification(10, 3)).isCloseTo(2.6667,
        within(1e-4));
    assertThat(AmplificationModel.mergingLevelWriteAmplification(10)).isCloseTo(6.0,
        within(1e-9));
    // formula (4): W_sp + n + t/(2k) + (n-m) t/2; m = n+1 is LSA
    assertThat(AmplificationModel.iamWriteAmplification(10, 4, 3, 2))
        .isCloseTo(0.496 + 4 + 2.5 + 5, within(1e-9));
    assertThat(AmplificationModel.iamWriteAmplification(10, 4, 5, 2))
        .isEqualTo(AmplificationModel.lsaWriteAmplification(10, 4));
  }

  @Test
  void lsaScansSeekFiveTimesAsOftenAsIamAtTen() {
    assertThat(AmplificationModel.lsaScanSeeks(10, 4, 3)
        / AmplificationModel.iamScanSeeks(4, 3)).isCloseTo(5.0, within(1e-9));
    assertThat(AmplificationModel.iamScanSeeks(4, 3)).isEqualTo(2);
  }

  @Test
  void shapeOfTheWorkedExamples() {
    List<Double> hundredGb = List.of(0.64 * GB, 6.4 * GB, 64 * GB);
    assertThat(ShapeSelector.choose(hundredGb, 16 * GB, 10, 11))
        .isEqualTo(new ShapeSelector.Shape(3, 2));
    assertThat(ShapeSelector.choose(hundredGb, 8 * GB, 10, 11))
        .isEqualTo(new ShapeSelector.Shape(3, 1));
    List<Double> oneTb = List.of(0.64 * GB, 6.4 * GB, 64 * GB, 640 * GB);
    assertThat(ShapeSelector.choose(oneTb, 64 * GB, 10, 11))
        .isEqualTo(new ShapeSelector.Shape(3, 9));
    assertThat(ShapeSelector.choose(oneTb, 32 * GB, 10, 11).mixedLevel()).isEqualTo(3);
    assertThat(ShapeSelector.choose(oneTb, 32 * GB, 10, 11).maxSequences()).isEqualTo(4);
    assertThat(ShapeSelector.choose(hundredGb, 100 * GB, 10, 11).mixedLevel()).isEqualTo(4);
    assertThat(ShapeSelector.choose(hundredGb, 0.01 * GB, 10, 11))
        .isEqualTo(new ShapeSelector.Shape(1, 1));
    assertThat(ShapeSelector.choose(hundredGb, 0.1 * GB, 10, 11)) // 0.64 (k-1)/10 <= 0.1
        .isEqualTo(new ShapeSelector.Shape(1, 2));
  }
}
