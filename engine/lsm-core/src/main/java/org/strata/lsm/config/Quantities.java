package org.strata.lsm.config;

import java.math.BigDecimal;
import java.util.Locale;
import org.strata.lsm.InvalidConfigurationException;

/**
 * The one reader of counts and sizes typed by people, on the command line and in configuration
 * files. A count is a whole number written plainly ({@code 1000000}), with underscores ({@code
 * 1_000_000}) or in scientific notation ({@code 1e6}, {@code 2.5e5}). A size is a count of bytes
 * with an optional binary unit: {@code B}, {@code KB} (1024), {@code MB}, {@code GB}, {@code TB},
 * or their IEC names {@code KiB}, {@code MiB}, {@code GiB}, {@code TiB} (the same values, and
 * how sizes are printed), case-insensitive, e.g. {@code 4KB}, {@code 1.5MB}, {@code 128MiB}.
 * Both must come to a whole, non-negative number; errors name the option or key, the value and
 * what is allowed.
 */
public final class Quantities {
  private static final String[] UNITS = {"TB", "GB", "MB", "KB", "B"};
  /** The same units under their IEC names, which is how sizes are printed. */
  private static final String[] IEC_UNITS = {"TiB", "GiB", "MiB", "KiB", "B"};
  private static final long[] UNIT_BYTES = {1L << 40, 1L << 30, 1L << 20, 1L << 10, 1};

  /** What a count may look like, for error messages. */
  public static final String COUNT_FORMS = "a whole number such as 1000000, 1_000_000 or 1e6";

  /** What a size may look like, for error messages. */
  public static final String SIZE_FORMS =
      "a size such as 4096, 4KB, 1.5MB, 128MB or 1GB (binary units)";

  private Quantities() {}

  /** Parses a non-negative count; errors name {@code key}. */
  public static long count(String key, String text) {
    BigDecimal v = number(text == null ? "" : text.trim());
    if (v == null) {
      throw InvalidConfigurationException.of(key, text, COUNT_FORMS);
    }
    return whole(key, text, v, COUNT_FORMS);
  }

  /** Parses a non-negative size in bytes; errors name {@code key}. */
  public static long bytes(String key, String text) {
    String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
    long unit = 1;
    for (int i = 0; i < UNITS.length; i++) {
      String iec = IEC_UNITS[i].toUpperCase(Locale.ROOT);
      String found = t.endsWith(iec) ? iec : t.endsWith(UNITS[i]) ? UNITS[i] : null;
      if (found != null) {
        unit = UNIT_BYTES[i];
        t = t.substring(0, t.length() - found.length()).trim();
        break;
      }
    }
    BigDecimal v = number(t);
    if (v == null) {
      throw InvalidConfigurationException.of(key, text, SIZE_FORMS);
    }
    return whole(key, text, v.multiply(BigDecimal.valueOf(unit)), SIZE_FORMS);
  }

  /**
   * Prints {@code bytes} for people: the largest binary unit that keeps at least 1, under its IEC
   * name, with up to one decimal (e.g. {@code 1.5 MiB}, {@code 812 B}); exact multiples print
   * without a decimal. The parser reads what this prints ({@code 1.5MiB} is {@code 1.5MB}).
   */
  public static String human(long bytes) {
    for (int i = 0; i < UNITS.length - 1; i++) {
      if (Math.abs(bytes) >= UNIT_BYTES[i]) {
        double v = (double) bytes / UNIT_BYTES[i];
        return (bytes % UNIT_BYTES[i] == 0 ? String.format(Locale.ROOT, "%d", bytes / UNIT_BYTES[i])
            : String.format(Locale.ROOT, "%.1f", v)) + " " + IEC_UNITS[i];
      }
    }
    return bytes + " B";
  }

  /** A rate in bytes per second for people, as {@link #human} prints sizes, with "/s". */
  public static String humanRate(double bytesPerSecond) {
    return human(Math.round(bytesPerSecond)) + "/s";
  }

  /** {@code bytes} in MiB (2^20 bytes), the unit reports print sizes in. */
  public static double mebibytes(double bytes) {
    return bytes / (1 << 20);
  }

  /** The number in {@code t} (digits, underscores between digits, a fraction, an exponent). */
  private static BigDecimal number(String t) {
    if (t.isEmpty() || t.startsWith("_") || t.endsWith("_") || t.contains("__")
        || !t.matches("[0-9_]*(\\.[0-9]+)?([eE][+]?[0-9]{1,3})?")) {
      return null;
    }
    String digits = t.replace("_", "");
    if (digits.isEmpty() || digits.charAt(0) == '.' || digits.toUpperCase(Locale.ROOT)
        .startsWith("E")) {
      return null;
    }
    try {
      return new BigDecimal(digits);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static long whole(String key, String text, BigDecimal v, String forms) {
    try {
      BigDecimal w = v.stripTrailingZeros();
      if (w.signum() >= 0 && w.scale() <= 0
          && w.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
        return w.longValueExact();
      }
    } catch (ArithmeticException e) {
      // reported below
    }
    throw InvalidConfigurationException.of(key, text, forms + " that comes to a whole number"
        + " between 0 and " + Long.MAX_VALUE);
  }
}
