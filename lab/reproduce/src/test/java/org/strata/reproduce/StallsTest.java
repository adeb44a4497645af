package org.strata.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats.StallTotals;

class StallsTest {
  @Test
  void aRunsStallsAreTheDifferenceOfTwoSnapshotsKeptByCause() {
    Stalls s = Stalls.between(Map.of(StallCause.MEMORY_FULL, new StallTotals(2, 0.5)),
        Map.of(StallCause.MEMORY_FULL, new StallTotals(5, 1.25),
            StallCause.CONSTRAINT, new StallTotals(4, 3.0)));
    assertThat(s).isEqualTo(new Stalls(3, 0.75, 4, 3.0));
    assertThat(s.count()).isEqualTo(7);
    assertThat(s.seconds()).isEqualTo(3.75);
    assertThat(s.cell()).isEqualTo("3 (0.75) / 4 (3)");
  }
}
