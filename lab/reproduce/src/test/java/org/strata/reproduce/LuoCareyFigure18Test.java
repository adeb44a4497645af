package org.strata.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * AC-S4: the size-tiered policy driven through the Fig. 18 example, and the verdict's logic on
 * schedules that differ from the paper's.
 */
class LuoCareyFigure18Test {
  private static LuoCareyConfig.Figure18 paper() throws Exception {
    try (InputStream in = LuoCareyFigure18Test.class
        .getResourceAsStream("/reproduce/luo-carey-quick.json")) {
      return PaperConfigs.read(new ObjectMapper().readTree(in), LuoCareyConfig.class,
          "luo-carey").figure18();
    }
  }

  private static LuoCareyConfig.Figure18 with(List<String> components) throws Exception {
    LuoCareyConfig.Figure18 p = paper();
    return new LuoCareyConfig.Figure18(p.sizeRatio(), p.minMerge(), p.maxMerge(), components,
        p.sizesChoice());
  }

  @Test
  void thePaperExampleRunsEveryCombinationAndHolds() throws Exception {
    LuoCareyConfig.Figure18 cfg = paper();
    List<Figure18Run.Case> cases = Figure18Run.run(cfg);
    assertThat(cases).hasSize(27);
    List<List<Integer>> expected = Figure18Run.expected(cfg.components());
    assertThat(expected).containsExactly(List.of(1, 2, 3, 4), List.of(6, 7, 8));
    Claim c = Figure18Run.claim(cfg, expected, cases);
    assertThat(c.verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(c.ours()).startsWith("27 of 27 trees");
  }

  @Test
  void aTreeThePolicyMergesOtherwiseDoesNotHold() throws Exception {
    // An oldest component of 12GB is small enough to join the first window: the policy merges
    // 12GB..6GB instead, which is not the paper's schedule.
    LuoCareyConfig.Figure18 cfg = with(List.of("12GB", "10GB", "8GB", "6GB", "5GB", "1GB",
        "128MB", "96MB", "64MB"));
    Claim c = Figure18Run.claim(cfg, Figure18Run.expected(cfg.components()),
        Figure18Run.run(cfg));
    assertThat(c.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(c.ours()).contains("0 of 1 trees").contains("first other");
  }

  @Test
  void oneDifferingCaseOfManyIsEnoughToFail() throws Exception {
    LuoCareyConfig.Figure18 cfg = paper();
    List<List<Integer>> expected = Figure18Run.expected(cfg.components());
    List<Figure18Run.Case> cases = new java.util.ArrayList<>(Figure18Run.run(cfg));
    cases.set(5, new Figure18Run.Case(cases.get(5).sizes(), List.of(List.of(1, 2, 3, 4))));
    Claim c = Figure18Run.claim(cfg, expected, cases);
    assertThat(c.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(c.reason()).isEqualTo("1 tree(s) scheduled otherwise");
    assertThat(Figure18Run.claim(cfg, expected, List.of()).verdict())
        .isEqualTo(Verdict.DOES_NOT_HOLD);
  }

  @Test
  void rangesAndBadSizesAreNamed() {
    assertThat(Figure18Run.range("5GB..10GB").points()).containsExactly(5L << 30,
        (5L << 30) + (5L << 29), 10L << 30);
    assertThat(Figure18Run.range("64MB").points()).containsExactly(64L << 20);
    assertThatThrownBy(() -> Figure18Run.range("10GB..5GB"))
        .hasMessageContaining("'10GB..5GB'");
    assertThatThrownBy(() -> Figure18Run.range("5GB..x"))
        .hasMessageContaining("bad size 'x'");
    assertThatThrownBy(() -> Figure18Run.expected(List.of("100GB", "5GB", "10GB")))
        .hasMessageContaining("10GB").hasMessageContaining("5GB");
  }

  @Test
  void aBadComponentInTheConfigurationIsOneClearError() throws Exception {
    ObjectNode cfg;
    try (InputStream in = LuoCareyFigure18Test.class
        .getResourceAsStream("/reproduce/luo-carey-tiny.json")) {
      cfg = (ObjectNode) new ObjectMapper().readTree(in);
    }
    ((com.fasterxml.jackson.databind.node.ArrayNode) cfg.with("figure18").get("components"))
        .set(2, "5GB..lots");
    assertThatThrownBy(() -> PaperConfigs.read(cfg, LuoCareyConfig.class, "luo-carey"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("figure18.components entry '5GB..lots'")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }
}
