package org.strata.twophase;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * One version of a record that a two-phase run writes: its key and its fields. Every system gets
 * the same bytes: the key's UTF-8 bytes, and as value the field values' UTF-8 bytes concatenated
 * in field-name order (1,000 bytes for the default 10 fields), which is what a system without a
 * record codec stores; Strata's dataset API stores the fields through its record codec instead.
 *
 * @param key the primary key, {@code user} and 12 digits
 * @param fields the field values by name
 */
public record GeneratedRecord(String key, Map<String, String> fields) {

  /** The key's bytes. */
  public byte[] keyBytes() {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The value's bytes: the field values concatenated in field-name order. For a record that
   * {@link RecordShape#fields} generated these are the record's own bytes, not a copy: read them,
   * never change them.
   */
  public byte[] valueBytes() {
    return valueBytes(fields);
  }

  /**
   * The value bytes of {@code fields}: their values concatenated in field-name order (the fields'
   * own bytes, not a copy, for generated fields: read them, never change them).
   */
  public static byte[] valueBytes(Map<String, String> fields) {
    if (fields instanceof RecordFields generated) {
      return generated.valueBytes();
    }
    Map<String, String> sorted = fields instanceof TreeMap ? fields : new TreeMap<>(fields);
    int n = 0;
    for (String v : sorted.values()) {
      n += v.length();
    }
    byte[] out = new byte[n];
    int at = 0;
    for (String v : sorted.values()) {
      byte[] b = v.getBytes(StandardCharsets.UTF_8);
      if (at + b.length > out.length) {
        byte[] grown = new byte[at + b.length];
        System.arraycopy(out, 0, grown, 0, at);
        out = grown;
      }
      System.arraycopy(b, 0, out, at, b.length);
      at += b.length;
    }
    return at == out.length ? out : java.util.Arrays.copyOf(out, at);
  }

  /** A 64-bit FNV-1a hash of {@code bytes}, to check a read-back value without keeping it. */
  public static long hash(byte[] bytes) {
    long h = 0xcbf29ce484222325L;
    for (byte b : bytes) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }
}
