package org.strata.twophase;

import java.util.SplittableRandom;

/**
 * The records {@code strata load} writes: key {@code user} + the id zero-padded to 12 digits, and a
 * value that depends only on (id, seed, size), so any process can recompute and check it.
 */
public final class RecordGenerator {
  private RecordGenerator() {}

  /** The key of record {@code id}: {@code user} and the id as 12 digits. */
  public static String key(long id) {
    return RecordShape.key(id);
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

  /** Ids 0..n-1 in a seeded random order (Fisher-Yates); the same order the two-phase load uses. */
  public static long[] permutation(long n, long seed) {
    return RecordShape.permutation(n, seed);
  }
}
