package org.strata.lsm.config;

import java.util.function.DoublePredicate;
import org.strata.lsm.InvalidConfigurationException;

/**
 * Range checks used by the compact constructors of configuration records, so that a configuration
 * built in code is refused with the same message as one read from a file. Each returns its value
 * (or the default, for null) and fails naming the key, the value and the allowed range.
 */
public final class ConfigChecks {
  private ConfigChecks() {}

  /** {@code value}, or {@code dflt} if null; fails unless {@code min <= value <= max}. */
  public static int integer(String key, Integer value, int dflt, int min, int max) {
    return (int) integer(key, value == null ? null : value.longValue(), dflt, min, max);
  }

  /** {@code value}, or {@code dflt} if null; fails unless {@code min <= value <= max}. */
  public static long integer(String key, Long value, long dflt, long min, long max) {
    long v = value == null ? dflt : value;
    if (v < min || v > max) {
      throw InvalidConfigurationException.of(key, v, "an integer from " + min + " to " + max);
    }
    return v;
  }

  /**
   * {@code value}, or {@code dflt} if null; fails unless {@code min <= value <= max} bytes, naming
   * the bounds in {@link ByteSize#format} units.
   */
  public static ByteSize size(String key, ByteSize value, ByteSize dflt, long min, long max) {
    ByteSize v = value == null ? dflt : value;
    if (v.bytes() < min || v.bytes() > max) {
      throw InvalidConfigurationException.of(key, v, "a size from " + ByteSize.format(min)
          + " to " + ByteSize.format(max));
    }
    return v;
  }

  /** {@code value}, or {@code dflt} if null; fails with {@code allowed} unless {@code ok}. */
  public static double number(String key, Double value, double dflt, DoublePredicate ok,
      String allowed) {
    double v = value == null ? dflt : value;
    if (!ok.test(v)) {
      throw InvalidConfigurationException.of(key, v, allowed);
    }
    return v;
  }
}
