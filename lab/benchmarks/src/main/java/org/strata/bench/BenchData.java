package org.strata.bench;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded inputs shared by the benchmarks: keys, values and dataset records of realistic sizes.
 *
 * <p>Key {@code i} is {@code user} followed by the 16 hex digits of a 64-bit bijective mix of
 * {@code i}: 20 bytes, distinct for distinct {@code i}, in random order (YCSB's hashed keys have
 * the same shape). So ids {@code [0, n)} can be loaded and ids {@code [n, 2n)} are keys that are
 * certainly missing yet spread over the same key range.
 */
final class BenchData {
  /** Bytes of every key. */
  static final int KEY_BYTES = 20;

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private BenchData() {}

  /** The key of id {@code i} (see the class comment). */
  static byte[] key(long i) {
    long h = mix(i);
    byte[] k = new byte[KEY_BYTES];
    k[0] = 'u';
    k[1] = 's';
    k[2] = 'e';
    k[3] = 'r';
    for (int d = 0; d < 16; d++) {
      k[4 + d] = HEX[(int) (h >>> (60 - 4 * d)) & 0xF];
    }
    return k;
  }

  /** Keys of ids {@code [from, from + n)}, in id order (which is a random key order). */
  static byte[][] keys(long from, int n) {
    byte[][] keys = new byte[n][];
    for (int i = 0; i < n; i++) {
      keys[i] = key(from + i);
    }
    return keys;
  }

  /** The same keys sorted in unsigned byte order, as a component holds them. */
  static byte[][] sortedKeys(long from, int n) {
    byte[][] keys = keys(from, n);
    Arrays.sort(keys, Arrays::compareUnsigned);
    return keys;
  }

  /** {@code count} distinct random values of {@code size} bytes. */
  static byte[][] values(int count, int size, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    byte[][] v = new byte[count][size];
    for (byte[] b : v) {
      for (int i = 0; i < size; i++) {
        b[i] = (byte) ('a' + r.nextInt(26));
      }
    }
    return v;
  }

  /**
   * One record shaped like the two-phase runner's: {@code field0} .. {@code field<fields-1>} of
   * {@code fieldLength} random letters, except {@code field1} and {@code field2}, 12-digit numbers
   * (the secondary-key fields), in field order.
   */
  static Map<String, String> record(int fields, int fieldLength, SplittableRandom r) {
    Map<String, String> f = new LinkedHashMap<>();
    char[] buf = new char[fieldLength];
    for (int i = 0; i < fields; i++) {
      if (i == 1 || i == 2) {
        f.put("field" + i, twelveDigits(r.nextLong(1_000_000_000_000L)));
      } else {
        for (int c = 0; c < fieldLength; c++) {
          buf[c] = (char) ('a' + r.nextInt(26));
        }
        f.put("field" + i, new String(buf));
      }
    }
    return f;
  }

  /** {@code n} as 12 digits with leading zeros. */
  static String twelveDigits(long n) {
    String s = Long.toString(n);
    return "0".repeat(Math.max(0, 12 - s.length())) + s;
  }

  /** SplitMix64's finaliser: a bijection on 64-bit values. */
  private static long mix(long z) {
    z += 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
