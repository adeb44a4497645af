package org.strata.reproduce;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** How reports print numbers: four significant digits, no trailing zeros, no exponent. */
public final class Numbers {
  private Numbers() {}

  /** {@code v} with at most four significant digits (integers above 9999 in full). */
  public static String format(double v) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "∞" : "−∞";
    }
    if (Math.abs(v) >= 10_000) {
      return String.format(Locale.ROOT, "%,d", Math.round(v));
    }
    BigDecimal d = BigDecimal.valueOf(v).round(new MathContext(4)).stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
  }
}
