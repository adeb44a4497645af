package org.strata.lsm.config;

import java.util.Locale;
import org.strata.lsm.InvalidConfigurationException;

/**
 * Parses and prints byte quantities such as {@code 4KB}, {@code 128MB} or {@code 1048576}. Units
 * are binary: 1KB = 1024 bytes, 1MB = 1024 KB, 1GB = 1024 MB, 1TB = 1024 GB; {@code B} and a plain
 * number mean bytes.
 */
public final class ByteSize {
  private ByteSize() {}

  /** Parses {@code text}; errors name {@code key}. */
  public static long parse(String key, String text) {
    String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
    long mult = 1;
    String num = t;
    String[][] units = {{"TB", "1099511627776"}, {"GB", "1073741824"}, {"MB", "1048576"},
        {"KB", "1024"}, {"B", "1"}};
    for (String[] u : units) {
      if (t.endsWith(u[0])) {
        mult = Long.parseLong(u[1]);
        num = t.substring(0, t.length() - u[0].length()).trim();
        break;
      }
    }
    try {
      long v = Long.parseLong(num);
      if (v >= 0 && v <= Long.MAX_VALUE / mult) {
        return v * mult;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw InvalidConfigurationException.of(
        key, text, "a non-negative size such as 4096, 4KB, 128MB or 1GB (binary units)");
  }

  /** Prints {@code bytes} with the largest unit that divides it exactly. */
  public static String format(long bytes) {
    String[] names = {"TB", "GB", "MB", "KB"};
    long[] sizes = {1L << 40, 1L << 30, 1L << 20, 1L << 10};
    for (int i = 0; i < names.length; i++) {
      if (bytes != 0 && bytes % sizes[i] == 0) {
        return (bytes / sizes[i]) + names[i];
      }
    }
    return Long.toString(bytes);
  }
}
