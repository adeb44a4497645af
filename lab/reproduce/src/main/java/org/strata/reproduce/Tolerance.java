package org.strata.reproduce;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How far a measured value may lie from the paper's and still agree with it. A tolerance is
 * either relative (|ours − paper| ≤ fraction · |paper|), absolute (|ours − paper| ≤ bound), or a
 * one-sided bound (ours ≤ paper · (1 + fraction), or ours ≥ paper · (1 − fraction)).
 *
 * @param kind which comparison
 * @param amount the fraction (relative and one-sided kinds) or the bound (absolute kind)
 */
public record Tolerance(Kind kind, double amount) {

  /** The comparison a tolerance makes. */
  public enum Kind {
    /** |ours − paper| ≤ amount · |paper|. */
    RELATIVE,
    /** |ours − paper| ≤ amount. */
    ABSOLUTE,
    /** ours ≤ paper · (1 + amount): the paper's value is an upper bound. */
    AT_MOST,
    /** ours ≥ paper · (1 − amount): the paper's value is a lower bound. */
    AT_LEAST
  }

  public Tolerance {
    if (kind == null) {
      throw new IllegalArgumentException("a tolerance needs a kind");
    }
    if (!(amount >= 0) || Double.isInfinite(amount)) {
      throw new IllegalArgumentException("a tolerance amount must be a finite number >= 0, got "
          + amount);
    }
  }

  /** Within {@code fraction} of the paper's value, either way. */
  public static Tolerance relative(double fraction) {
    return new Tolerance(Kind.RELATIVE, fraction);
  }

  /** Within {@code bound} of the paper's value, either way. */
  public static Tolerance absolute(double bound) {
    return new Tolerance(Kind.ABSOLUTE, bound);
  }

  /** At most the paper's value plus {@code fraction} of it. */
  public static Tolerance atMost(double fraction) {
    return new Tolerance(Kind.AT_MOST, fraction);
  }

  /** At least the paper's value minus {@code fraction} of it. */
  public static Tolerance atLeast(double fraction) {
    return new Tolerance(Kind.AT_LEAST, fraction);
  }

  /**
   * Whether {@code ours} agrees with {@code paper}. A value that is not a number never agrees.
   */
  public boolean accepts(double paper, double ours) {
    if (Double.isNaN(paper) || Double.isNaN(ours) || Double.isInfinite(paper)
        || Double.isInfinite(ours)) {
      return false;
    }
    double eps = 1e-12 * Math.max(1, Math.abs(paper));
    return switch (kind) {
      case RELATIVE -> Math.abs(ours - paper) <= amount * Math.abs(paper) + eps;
      case ABSOLUTE -> Math.abs(ours - paper) <= amount + eps;
      case AT_MOST -> ours <= paper + amount * Math.abs(paper) + eps;
      case AT_LEAST -> ours >= paper - amount * Math.abs(paper) - eps;
    };
  }

  /** The tolerance in words, e.g. {@code ±15%}, {@code ±0.5}, {@code ≤ paper + 10%}. */
  @JsonValue
  public String describe() {
    String pct = Numbers.format(amount * 100) + "%";
    return switch (kind) {
      case RELATIVE -> "±" + pct;
      case ABSOLUTE -> "±" + Numbers.format(amount);
      case AT_MOST -> amount == 0 ? "≤ paper" : "≤ paper + " + pct;
      case AT_LEAST -> amount == 0 ? "≥ paper" : "≥ paper − " + pct;
    };
  }
}
