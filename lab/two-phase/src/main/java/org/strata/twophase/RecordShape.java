package org.strata.twophase;

import java.util.Map;
import java.util.SplittableRandom;

/**
 * The records of a two-phase experiment, YCSB-style and shaped like the paper's modified YCSB for
 * secondary indexes: key {@code user} + the id as 12 digits; fields {@code field0}.. of {@code
 * fieldLength} random letters, except {@code field1} and {@code field2}, 12-digit numbers uniform
 * over the key space (the secondary fields).
 *
 * <p>A letter field is a slice, at a random offset, of a pool of random letters drawn once per
 * shape from a fixed seed (at least 1 MiB, and at least four fields long), the way RocksDB's {@code
 * db_bench} slices its values out of one random buffer: a record costs one random number per
 * field and a copy, not one per four letters, so the loader weighs little beside the store it
 * loads. No store compresses in the experiments that load these records; a slice is as random as
 * the pool to any compressor that sees a block of them, since slices start anywhere in a megabyte.
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
  /** Each field's length and offset in a value (field order; the same for every record). */
  private final int[] lengths;
  private final int[] offsets;
  /** Bytes of every value. */
  private final int valueLength;
  /** Random lowercase letters that letter fields are sliced from. */
  private final byte[] letters;
  /** Seed of {@link #letters}: every shape of one field length has the same pool. */
  private static final long LETTER_POOL_SEED = 0x5EED_1E77E55L;
  /** Least bytes of the letter pool. */
  static final int LETTER_POOL_BYTES = 1 << 20;

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
    this.letters = letterPool(Math.max(LETTER_POOL_BYTES, 4L * fieldLength));
    this.lengths = new int[fields];
    for (int i = 0; i < fields; i++) {
      lengths[i] = i == 1 || i == 2 ? numberWidth : fieldLength;
    }
    this.offsets = new int[fields];
    int at = 0;
    for (int i : order) {
      offsets[i] = at;
      at += lengths[i];
    }
    this.valueLength = at;
  }

  /** {@code size} random lowercase letters, four from each 64 random bits of a fixed seed. */
  private static byte[] letterPool(long size) {
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("fields of " + size / 4 + " characters are too long for"
          + " the record generator; at most " + (Integer.MAX_VALUE - 8) / 4);
    }
    byte[] pool = new byte[(int) size];
    SplittableRandom random = new SplittableRandom(LETTER_POOL_SEED);
    int c = 0;
    while (c < pool.length) {
      long bits = random.nextLong();
      for (int k = 0; k < 4 && c < pool.length; k++, c++) {
        pool[c] = (byte) ('a' + (int) (((bits & 0xFFFF) * 26) >>> 16));
        bits >>>= 16;
      }
    }
    return pool;
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
   * {@code fieldLength} random lowercase letters, a slice of the letter pool at a random offset
   * (the class comment says why). The map is unmodifiable and holds the value bytes a loader
   * writes ({@link GeneratedRecord#valueBytes}), so that generating a record costs one random
   * number and one copy per field and no string per field unless the fields are read.
   */
  public Map<String, String> fields(SplittableRandom random) {
    byte[] value = new byte[valueLength];
    for (int i = 0; i < fields; i++) {
      int off = offsets[i];
      if (i == 1 || i == 2) {
        long n = random.nextLong(keys);
        for (int c = numberWidth - 1; c >= 0; c--) {
          value[off + c] = (byte) ('0' + n % 10);
          n /= 10;
        }
      } else {
        int from = random.nextInt(letters.length - fieldLength + 1);
        System.arraycopy(letters, from, value, off, fieldLength);
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
