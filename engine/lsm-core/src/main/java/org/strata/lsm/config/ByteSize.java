package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import org.strata.lsm.InvalidConfigurationException;

/**
 * A non-negative number of bytes, such as {@code 4KB}, {@code 128MB} or {@code 1048576}. Units are
 * binary: 1KB = 1024 bytes, 1MB = 1024 KB, 1GB = 1024 MB, 1TB = 1024 GB; {@code B} and a plain
 * number mean bytes. In JSON a size is a string with or without a unit, or an integer; it is
 * written as {@link #toString()}.
 *
 * @param bytes the number of bytes, at least 0
 */
public record ByteSize(long bytes) {
  /** What a size may look like, for error messages. */
  public static final String ALLOWED =
      "a non-negative size such as 4096, 4KB, 1.5MB, 128MB or 1GB (binary units)";

  private static final String[] UNITS = {"TB", "GB", "MB", "KB"};
  private static final long[] UNIT_BYTES = {1L << 40, 1L << 30, 1L << 20, 1L << 10};

  public ByteSize {
    if (bytes < 0) {
      throw InvalidConfigurationException.of("", bytes, ALLOWED);
    }
  }

  /** {@code bytes} bytes. */
  public static ByteSize ofBytes(long bytes) {
    return new ByteSize(bytes);
  }

  /**
   * Parses {@code text} as {@link Quantities#bytes} does (the one reader of sizes, on the command
   * line and in files: {@code 4096}, {@code 4KB}, {@code 1.5MB}, {@code 1_024}); errors name
   * {@code key}.
   */
  public static ByteSize parse(String key, String text) {
    try {
      return new ByteSize(Quantities.bytes(key, text));
    } catch (InvalidConfigurationException e) {
      throw InvalidConfigurationException.of(key, text, ALLOWED);
    }
  }

  /**
   * A size in a configuration file: a string as {@link #parse} reads it or an integer. Anything
   * else (a fraction, a boolean, an object) is refused; the reader names the key.
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  static ByteSize fromJson(JsonNode value) {
    if (value.isTextual()) {
      return parse("", value.asText());
    }
    if (value.isIntegralNumber() && value.canConvertToLong()) {
      return new ByteSize(value.asLong());
    }
    throw InvalidConfigurationException.of("", value, "a size such as 4096, 4KB or 128MB");
  }

  /** Prints {@code bytes} with the largest unit that divides it exactly, e.g. {@code 64MB}. */
  public static String format(long bytes) {
    for (int i = 0; i < UNITS.length; i++) {
      if (bytes != 0 && bytes % UNIT_BYTES[i] == 0) {
        return (bytes / UNIT_BYTES[i]) + UNITS[i];
      }
    }
    return Long.toString(bytes);
  }

  /** The size as {@link #format} prints it; this is also its JSON form. */
  @JsonValue
  @Override
  public String toString() {
    return format(bytes);
  }
}
