package org.strata.reproduce;

import com.fasterxml.jackson.annotation.JsonValue;

/** The outcome of checking one claim of a paper against our measurement. */
public enum Verdict {
  /** Our measurement agrees with the paper's within the claim's tolerance. */
  HOLDS("holds"),
  /** Our measurement was made and falls outside the claim's tolerance. */
  DOES_NOT_HOLD("does-not-hold"),
  /**
   * The claim could not be checked (what it needs is not modelled, or not run at this scale); the
   * claim carries the reason.
   */
  NOT_COMPARABLE("not-comparable");

  private final String label;

  Verdict(String label) {
    this.label = label;
  }

  /**
   * The verdict as written in reports: {@code holds}, {@code does-not-hold}, {@code
   * not-comparable}.
   */
  @JsonValue
  public String label() {
    return label;
  }

  /** {@link #HOLDS} when {@code ok}, else {@link #DOES_NOT_HOLD}. */
  public static Verdict of(boolean ok) {
    return ok ? HOLDS : DOES_NOT_HOLD;
  }
}
