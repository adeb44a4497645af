package org.strata.reproduce;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One claim of a paper with its verdict: the row of a reproduction report.
 *
 * @param id short identifier, e.g. {@code AC-F3} or {@code T1-bigtable-k4-n1000-wa}
 * @param claim the claim in words
 * @param paper the paper's value (a number, an ordering, or a statement)
 * @param ours what we measured, in the same terms; empty when nothing could be measured
 * @param tolerance how far ours may lie from the paper's value and still agree
 * @param verdict the outcome
 * @param reason why the verdict is what it is; never blank for {@link Verdict#NOT_COMPARABLE}
 */
@JsonPropertyOrder({"id", "claim", "paper", "ours", "tolerance", "verdict", "reason"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Claim(String id, String claim, String paper, String ours, String tolerance,
    Verdict verdict, String reason) {

  public Claim {
    require(id, "id");
    require(claim, "claim");
    require(paper, "paper value");
    if (verdict == null) {
      throw new IllegalArgumentException("claim " + id + " has no verdict");
    }
    ours = ours == null ? "" : ours;
    tolerance = tolerance == null ? "" : tolerance;
    reason = reason == null ? "" : reason;
    if (verdict == Verdict.NOT_COMPARABLE && reason.isBlank()) {
      throw new IllegalArgumentException("claim " + id
          + " is not-comparable and must say why (reason is blank)");
    }
  }

  private static void require(String s, String what) {
    if (s == null || s.isBlank()) {
      throw new IllegalArgumentException("a claim needs a non-blank " + what);
    }
  }

  /**
   * A numeric claim: the verdict is whether {@code ours} lies within {@code tolerance} of {@code
   * paper}. {@code paper} must come from the paper (or its docs/papers page), {@code ours} from a
   * measurement.
   */
  public static Claim numeric(String id, String claim, double paper, double ours,
      Tolerance tolerance) {
    boolean ok = tolerance.accepts(paper, ours);
    String why = "ours " + Numbers.format(ours) + (ok ? " is within " : " is outside ")
        + tolerance.describe() + " of the paper's " + Numbers.format(paper);
    return new Claim(id, claim, Numbers.format(paper), Numbers.format(ours),
        tolerance.describe(), Verdict.of(ok), why);
  }

  /**
   * A qualitative claim (an ordering, the presence or absence of stalls): the check was run and
   * {@code holds} says whether our measurement shows what the paper states.
   *
   * @param why what the measurement showed, in words
   */
  public static Claim judged(String id, String claim, String paper, String ours,
      String tolerance, boolean holds, String why) {
    return new Claim(id, claim, paper, ours, tolerance, Verdict.of(holds), why);
  }

  /** A claim that could not be checked, with the reason. */
  public static Claim notComparable(String id, String claim, String paper, String reason) {
    return new Claim(id, claim, paper, "", "", Verdict.NOT_COMPARABLE, reason);
  }
}
