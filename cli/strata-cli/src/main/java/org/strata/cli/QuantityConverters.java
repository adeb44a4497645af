package org.strata.cli;

import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.Quantities;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * picocli converters for counts and sizes typed on the command line, all through {@link
 * Quantities}: {@code --records 1e6}, {@code --records 1_000_000}, {@code --record-size 1KB}. A
 * value that does not parse is a usage error (exit 2) that says which forms are allowed.
 */
final class QuantityConverters {
  private QuantityConverters() {}

  /** A count as a {@code long}. */
  static final class Count implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      return parse(() -> Quantities.count("value", value), value, Quantities.COUNT_FORMS);
    }
  }

  /** A count as an {@code int}. */
  static final class IntCount implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return toInt(parse(() -> Quantities.count("value", value), value, Quantities.COUNT_FORMS),
          value);
    }
  }

  /** A count as a {@code double} (for model inputs such as {@code tune --entries}). */
  static final class DoubleCount implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      return (double) parse(() -> Quantities.count("value", value), value,
          Quantities.COUNT_FORMS);
    }
  }

  /** A size in bytes as an {@code int}. */
  static final class IntSize implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return toInt(parse(() -> Quantities.bytes("value", value), value, Quantities.SIZE_FORMS),
          value);
    }
  }

  private interface Parse {
    long get();
  }

  private static long parse(Parse p, String value, String forms) {
    try {
      return p.get();
    } catch (InvalidConfigurationException e) {
      throw new TypeConversionException("'" + value + "' is not allowed; allowed: " + forms);
    }
  }

  private static int toInt(long v, String value) {
    if (v > Integer.MAX_VALUE) {
      throw new TypeConversionException("'" + value + "' is above " + Integer.MAX_VALUE);
    }
    return (int) v;
  }
}
