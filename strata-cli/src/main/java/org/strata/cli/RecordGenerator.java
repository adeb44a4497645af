package org.strata.cli;

import java.util.SplittableRandom;

/**
 * The records {@code strata load} writes: key {@code user} + the id zero-padded to 12 digits, and a
 * value that depends only on (id, seed, size), so any process can recompute and check it.
 */
public final class RecordGenerator {
  private RecordGenerator() {}

  /** The key of record {@code id}. */
  public static String key(long id) {
    if (id < 0) {
      throw new IllegalArgumentException("record ids are non-negative, got " + id);
    }
    char[] c = {'u', 's', 'e', 'r', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'};
    String digits = Long.toString(id);
    if (digits.length() > 12) {
      return "user" + digits;
    }
    digits.getChars(0, digits.length(), c, 16 - digits.length());
    return new String(c);
  }

  /** The value of record {@code id}: {@code size} lower-case letters. */
  public static byte[] value(long id, long seed, int size) {
    byte[] v = new byte[size];
    fillValue(id, seed, v);
    return v;
  }

  /** Fills {@code out} with the value of record {@code id}. */
  public static void fillValue(long id, long seed, byte[] out) {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ id);
    int i = 0;
    while (i < out.length) {
      long bits = r.nextLong();
      for (int j = 0; j < 8 && i < out.length; j++, i++) {
        out[i] = (byte) ('a' + (int) (((bits & 0xFF) * 26) >>> 8));
        bits >>>= 8;
      }
    }
  }

  /** Ids 0..n-1 in a seeded random order (Fisher-Yates). */
  public static long[] permutation(long n, long seed) {
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("--key-order random supports at most "
          + (Integer.MAX_VALUE - 8) + " records");
    }
    long[] ids = new long[(int) n];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i;
    }
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = ids.length - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      long t = ids[i];
      ids[i] = ids[j];
      ids[j] = t;
    }
    return ids;
  }
}
