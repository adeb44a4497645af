package org.strata.sim.des;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The time-integrated component count against sums done by hand. */
class ComponentTimeTest {
  @Test
  void integratesTheStepFunctionOfTheCount() {
    ComponentTime c = new ComponentTime(0, 0);
    c.set(2, 1); // 0 components for 2 s
    c.set(3, 2); // 1 for 1 s
    c.set(5, 1); // 2 for 2 s
    // then 1 for 1 s: 0·2 + 1·1 + 2·2 + 1·1 = 6 component-seconds over 6 s
    assertThat(c.integral(6)).isEqualTo(6.0);
    assertThat(c.integral(5)).isEqualTo(5.0);
    assertThat(c.count()).isEqualTo(1);
  }

  @Test
  void aChangeAtTheSameInstantAddsNothing() {
    ComponentTime c = new ComponentTime(1, 3);
    c.set(1, 4);
    c.set(1, 2);
    assertThat(c.integral(1)).isZero();
    assertThat(c.integral(3.5)).isEqualTo(5.0);
  }

  @Test
  void refusesTimeGoingBackAndNegativeCounts() {
    ComponentTime c = new ComponentTime(0, 0);
    c.set(2, 1);
    assertThatThrownBy(() -> c.set(1, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("time went back");
    assertThatThrownBy(() -> c.integral(1.5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> c.set(3, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
  }
}
