package org.strata.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How a measured value becomes a verdict: tolerances, numeric claims, refused claims. */
class VerdictLogicTest {

  @ParameterizedTest(name = "{0} {1}: paper {2}, ours {3} -> {4}")
  @CsvSource({
      "RELATIVE, 0.15, 100, 115, true",
      "RELATIVE, 0.15, 100, 85, true",
      "RELATIVE, 0.15, 100, 115.01, false",
      "RELATIVE, 0.15, 100, 84.99, false",
      "RELATIVE, 0.15, -100, -114, true",
      "RELATIVE, 0.15, -100, -116, false",
      "RELATIVE, 0, 5, 5, true",
      "RELATIVE, 0, 5, 5.0001, false",
      "ABSOLUTE, 0.5, 3, 3.5, true",
      "ABSOLUTE, 0.5, 3, 2.49, false",
      "AT_MOST, 0.1, 10, 11, true",
      "AT_MOST, 0.1, 10, 11.01, false",
      "AT_MOST, 0.1, 10, 0, true",
      "AT_LEAST, 0.1, 10, 9, true",
      "AT_LEAST, 0.1, 10, 8.99, false",
      "AT_LEAST, 0.1, 10, 1000, true",
  })
  void toleranceAcceptsExactlyItsRange(Tolerance.Kind kind, double amount, double paper,
      double ours, boolean accepted) {
    assertThat(new Tolerance(kind, amount).accepts(paper, ours)).isEqualTo(accepted);
  }

  @Test
  void aValueThatIsNotANumberNeverAgrees() {
    Tolerance t = Tolerance.relative(10);
    assertThat(t.accepts(1, Double.NaN)).isFalse();
    assertThat(t.accepts(Double.NaN, 1)).isFalse();
    assertThat(t.accepts(1, Double.POSITIVE_INFINITY)).isFalse();
    assertThat(Tolerance.atMost(0).accepts(1, Double.NEGATIVE_INFINITY)).isFalse();
  }

  @Test
  void aNumericClaimOutOfToleranceDoesNotHold() {
    Claim out = Claim.numeric("T1-x", "write amplification", 86.33, 109.4,
        Tolerance.relative(0.25));
    assertThat(out.verdict()).isEqualTo(Verdict.DOES_NOT_HOLD);
    assertThat(out.paper()).isEqualTo("86.33");
    assertThat(out.ours()).isEqualTo("109.4");
    assertThat(out.tolerance()).isEqualTo("±25%");
    assertThat(out.reason()).contains("outside");
    Claim in = Claim.numeric("T1-y", "write amplification", 175.06, 215.4,
        Tolerance.relative(0.25));
    assertThat(in.verdict()).isEqualTo(Verdict.HOLDS);
    assertThat(in.reason()).contains("within");
  }

  @Test
  void aJudgedClaimFollowsItsCheck() {
    assertThat(Claim.judged("a", "b", "c", "d", "e", true, "f").verdict())
        .isEqualTo(Verdict.HOLDS);
    assertThat(Claim.judged("a", "b", "c", "d", "e", false, "f").verdict())
        .isEqualTo(Verdict.DOES_NOT_HOLD);
  }

  @Test
  void notComparableNeedsAReasonAndClaimsNeedTheirWords() {
    assertThatThrownBy(() -> Claim.notComparable("AC-F9", "queries", "x", " "))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("AC-F9")
        .hasMessageContaining("must say why");
    assertThatThrownBy(() -> new Claim("AC-F9", "queries", "x", "", "", Verdict.NOT_COMPARABLE,
        null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Claim.judged("", "b", "c", "d", "e", true, "f"))
        .hasMessageContaining("id");
    assertThatThrownBy(() -> Claim.judged("a", "b", "", "d", "e", true, "f"))
        .hasMessageContaining("paper value");
    assertThat(Claim.notComparable("AC-F9", "queries", "x", "no query model").verdict())
        .isEqualTo(Verdict.NOT_COMPARABLE);
  }

  @Test
  void badTolerancesAreRefused() {
    assertThatThrownBy(() -> Tolerance.relative(-0.1)).hasMessageContaining(">= 0");
    assertThatThrownBy(() -> Tolerance.absolute(Double.NaN)).hasMessageContaining(">= 0");
    assertThatThrownBy(() -> new Tolerance(null, 1)).hasMessageContaining("kind");
  }

  @Test
  void verdictsAndTolerancesAreWrittenInWords() throws Exception {
    ObjectMapper json = new ObjectMapper();
    JsonNode c = json.valueToTree(Claim.notComparable("AC-P1", "partitioned", "declining",
        "not modelled"));
    assertThat(c.get("verdict").asText()).isEqualTo("not-comparable");
    assertThat(json.valueToTree(Tolerance.atLeast(0.1)).asText()).isEqualTo("≥ paper − 10%");
    assertThat(json.valueToTree(Verdict.DOES_NOT_HOLD).asText()).isEqualTo("does-not-hold");
  }

  @Test
  void theSummaryCountsEveryVerdict() {
    List<Claim> claims = List.of(Claim.judged("a", "b", "c", "d", "e", true, "f"),
        Claim.judged("b", "b", "c", "d", "e", false, "f"),
        Claim.judged("c", "b", "c", "d", "e", true, "f"),
        Claim.notComparable("d", "b", "c", "why"));
    assertThat(Report.Summary.of(claims)).isEqualTo(new Report.Summary(2, 1, 1));
  }

  @Test
  void numbersAreShortAndPlain() {
    assertThat(Numbers.format(3.33333)).isEqualTo("3.333");
    assertThat(Numbers.format(20000)).isEqualTo("20,000");
    assertThat(Numbers.format(5.0)).isEqualTo("5");
    assertThat(Numbers.format(0.00012345)).isEqualTo("0.0001235");
    assertThat(Numbers.format(Double.NaN)).isEqualTo("n/a");
  }
}
