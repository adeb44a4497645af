package org.strata.twophase;

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
  /** Digits of {@code field1} and {@code field2}: 12, or more for a key space beyond 10^12. */
  private final int numberWidth;
  /** {@code field0} .. in field order. */
  private final String[] names;
  /** Field indexes in field-name order (the order of a value's bytes). */
  private final int[] order;

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
    this.numberWidth = Math.max(12, Long.toString(Math.max(0, keys - 1)).length());
    String[] n = new String[fields];
    for (int i = 0; i < fields; i++) {
      n[i] = "field" + i;
    }
    this.names = n;
    this.order = java.util.stream.IntStream.range(0, fields).boxed()
        .sorted(java.util.Comparator.comparing(i -> n[i])).mapToInt(Integer::intValue).toArray();
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

  /**
   * A fresh version of a record's fields, in field order: {@code field1} and {@code field2} as
   * 12-digit numbers (more for a key space beyond 10^12) uniform over the keys, the others
   * {@code fieldLength} random lowercase letters (four from each 64 random bits, each letter from
   * 16 of them). The map is unmodifiable
   * and holds the value bytes a loader writes ({@link GeneratedRecord#valueBytes}), so that
   * generating a record costs about one random long per four letters and no string per field
   * unless the fields are read.
   */
  public Map<String, String> fields(SplittableRandom random) {
    int[] lengths = new int[fields];
    for (int i = 0; i < fields; i++) {
      lengths[i] = i == 1 || i == 2 ? numberWidth : fieldLength;
    }
    int[] offsets = new int[fields];
    int at = 0;
    for (int i : order) {
      offsets[i] = at;
      at += lengths[i];
    }
    byte[] value = new byte[at];
    for (int i = 0; i < fields; i++) {
      int off = offsets[i];
      if (i == 1 || i == 2) {
        long n = random.nextLong(keys);
        for (int c = numberWidth - 1; c >= 0; c--) {
          value[off + c] = (byte) ('0' + n % 10);
          n /= 10;
        }
      } else {
        int c = 0;
        while (c < fieldLength) {
          long bits = random.nextLong();
          for (int k = 0; k < 4 && c < fieldLength; k++, c++) {
            value[off + c] = (byte) ('a' + (int) (((bits & 0xFFFF) * 26) >>> 16));
            bits >>>= 16;
          }
        }
      }
    }
    return new RecordFields(names, value, offsets, lengths);
  }

  /** Bytes of every key ({@link #key}). */
  public static final int KEY_BYTES = 16;

  /** User bytes of one record (key plus field values), for reports. */
  long recordBytes() {
    return KEY_BYTES + valueBytes(fields, fieldLength);
  }

  /** Bytes of one record's value (its field values: two 12-digit numbers and the rest). */
  public static long valueBytes(TwoPhaseConfig.Records records) {
    return valueBytes(records.fields(), records.fieldLength());
  }

  private static long valueBytes(int fields, int fieldLength) {
    return 24 + (long) (fields - 2) * fieldLength;
  }
}
