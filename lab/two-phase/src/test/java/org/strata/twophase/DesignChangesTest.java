package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stretches between design changes, from constructed samples. */
class DesignChangesTest {
  private static PhaseSample second(int s, String design, long writes, long queries,
      long components, long flushed, long merged) {
    return new PhaseSample("running", s, writes, writes, 0, components, false, 0, flushed, merged,
        Double.NaN, Double.NaN, 0, 0, Double.NaN, 0, queries, design);
  }

  @Test
  void eachStretchOfOneDesignGetsItsOwnRates() {
    List<PhaseSample> s = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      s.add(second(i, "T=10 K=1 Z=1", 1000, 10, 4, 100, 300));
    }
    for (int i = 5; i <= 6; i++) {
      s.add(second(i, "T=2 K=1 Z=1", 500, 2000, 8, 0, 50));
    }
    List<DesignChanges.Stretch> st = DesignChanges.of(s);
    assertThat(st).hasSize(2);
    assertThat(st.get(0)).isEqualTo(new DesignChanges.Stretch("T=10 K=1 Z=1", 1, 4, 1000, 10, 4,
        3.0));
    assertThat(st.get(1).seconds()).isEqualTo(2);
    assertThat(st.get(1).queriesPerSecond()).isEqualTo(2000);
    assertThat(st.get(1).mergedPerFlushed()).isNaN();
    String table = DesignChanges.table("running", s);
    assertThat(table).contains("1 change(s)").contains("| 5-6 | T=2 K=1 Z=1 | 500 | 2,000 | 8.0"
        + " | no flush |");
  }

  @Test
  void samplesWithoutADesignGiveNoTable() {
    List<PhaseSample> s = List.of(second(1, "", 10, 0, 1, 0, 0), second(2, "", 10, 0, 1, 0, 0));
    assertThat(DesignChanges.of(s)).isEmpty();
  }
}
