package org.strata.reproduce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * AC-F7-leveling-greedy compares two degradations: it holds only when local constraints degraded
 * at least one scheduler, never on ratios of latencies that stayed small (a vacuous pass: greedy
 * 5.7e-6x against fair 1x once "held").
 */
class LuoCareyLocalConstraintClaimTest {
  private static LuoCareyConfig tiny() throws Exception {
    try (InputStream in = LuoCareyLocalConstraintClaimTest.class
        .getResourceAsStream("/reproduce/luo-carey-tiny.json")) {
      return PaperConfigs.read(new ObjectMapper().readTree(in), LuoCareyConfig.class,
          "luo-carey");
    }
  }

  @Test
  void neitherDegradedDoesNotHold() throws Exception {
    LuoCareyConfig cfg = tiny(); // smallP99Seconds 1
    Claim c = LuoCareyReproduction.greedyDegradesMore(0.02, 0.01, 0.001, 0.001, cfg);
    assertThat(c.verdict()).as("greedy 2x of tiny latencies is no degradation")
        .isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(c.reason()).contains("neither scheduler degraded");
  }

  @Test
  void greedyDegradingMoreHoldsAndLessDoesNot() throws Exception {
    LuoCareyConfig cfg = tiny();
    assertThat(LuoCareyReproduction.greedyDegradesMore(30, 2, 8, 2, cfg).verdict())
        .isEqualTo(Verdict.HOLDS);
    Claim less = LuoCareyReproduction.greedyDegradesMore(8, 2, 30, 2, cfg);
    assertThat(less.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(less.reason()).isEqualTo("greedy does not degrade more");
  }
}
