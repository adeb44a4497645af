package org.strata.ycsb.twophase;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The records of a two-phase experiment, YCSB-style and shaped like the paper's modified YCSB for
 * secondary indexes: key {@code user} + the id as 12 digits; fields {@code field0}.. of {@code
 * fieldLength} random letters, except {@code field1} and {@code field2}, 12-digit numbers uniform
 * over the key space (the secondary fields).
 */
public final class RecordShape {
  private final int fields;
  private final int fieldLength;
  private final long keys;

  RecordShape(TwoPhaseConfig.Records records, long keys) {
    this(records.fields(), records.fieldLength(), keys);
  }

  /**
   * @param fields fields per record, at least 3 ({@code field0} .. )
   * @param fieldLength characters of each non-secondary field
   * @param keys the key space, over which {@code field1} and {@code field2} are uniform
   */
  public RecordShape(int fields, int fieldLength, long keys) {
    this.fields = fields;
    this.fieldLength = fieldLength;
    this.keys = keys;
  }

  /** The key of record {@code id}: {@code user} and the id as 12 digits (more if it needs). */
  public static String key(long id) {
    if (id < 0) {
      throw new IllegalArgumentException("record ids are non-negative, got " + id);
    }
    String digits = Long.toString(id);
    return digits.length() >= 12 ? "user" + digits : "user" + "0".repeat(12 - digits.length())
        + digits;
  }

  /** Ids 0..n-1 in a seeded random order (Fisher-Yates). */
  public static long[] permutation(long n, long seed) {
    if (n > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("a random order supports at most "
          + (Integer.MAX_VALUE - 8) + " records, not " + n);
    }
    long[] ids = new long[(int) n];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i;
    }
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    for (int i = ids.length - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      long x = ids[i];
      ids[i] = ids[j];
      ids[j] = x;
    }
    return ids;
  }

  /**
   * A secondary field's value {@code v}: 12 digits (more if it needs), so that text order is
   * number order below 10^12.
   */
  public static String secondaryValue(long v) {
    if (v < 0) {
      throw new IllegalArgumentException("secondary values are non-negative, got " + v);
    }
    String n = Long.toString(v);
    return "0".repeat(Math.max(0, 12 - n.length())) + n;
  }

  /** A fresh version of a record's fields, in field order. */
  public Map<String, String> fields(SplittableRandom random) {
    Map<String, String> f = new LinkedHashMap<>();
    char[] buf = new char[fieldLength];
    for (int i = 0; i < fields; i++) {
      if (i == 1 || i == 2) {
        f.put("field" + i, secondaryValue(random.nextLong(keys)));
      } else {
        for (int c = 0; c < fieldLength; c++) {
          buf[c] = (char) ('a' + random.nextInt(26));
        }
        f.put("field" + i, new String(buf));
      }
    }
    return f;
  }

  /** User bytes of one record (key plus field values), for reports. */
  long recordBytes() {
    return 16 + 24 + (long) (fields - 2) * fieldLength;
  }
}
