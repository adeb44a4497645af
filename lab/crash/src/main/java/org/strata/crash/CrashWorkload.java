package org.strata.crash;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The writes of a crash test: operation {@code seq} (1, 2, ...) is a function of the seed and
 * {@code seq} alone, so the parent knows every write the child makes from its sequence number, and
 * a child restarted at {@code seq} writes exactly what an earlier one would have. About 30% of the
 * operations go to 10 hot keys (so TRIAD-MEM has keys to keep in memory), the rest spread over
 * {@code keys} keys, except in every third phase of {@value #PHASE} operations, which writes the
 * hot keys only (so TRIAD-MEM skips flushes of small components); one in ten is a delete. A value
 * carries its sequence number, so a value read back names the write it came from.
 */
public final class CrashWorkload {
  /** Store keys. */
  static final int STORE_KEYS = 3000;
  /** Dataset record keys. */
  static final int DATASET_KEYS = 1500;
  private static final int HOT_KEYS = 10;
  /** Operations per phase; phases 2, 5, 8, ... (from 0) write the hot keys only. */
  static final int PHASE = 500;

  private final long seed;
  private final int keys;

  /** The workload of {@code seed} over {@code keys} keys. */
  public CrashWorkload(long seed, int keys) {
    if (keys <= HOT_KEYS) {
      throw new IllegalArgumentException("keys must be above " + HOT_KEYS + ", got " + keys);
    }
    this.seed = seed;
    this.keys = keys;
  }

  /** The workload of {@code seed} for a writer of {@code kind}. */
  public static CrashWorkload of(long seed, WriterKind kind) {
    return new CrashWorkload(seed, kind.dataset() ? DATASET_KEYS : STORE_KEYS);
  }

  private long mix(long seq) {
    long z = seed * 0x9E3779B97F4A7C15L + seq * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return (z ^ (z >>> 31)) & Long.MAX_VALUE;
  }

  /** The key operation {@code seq} writes. */
  public String key(long seq) {
    long m = mix(seq);
    boolean hotOnly = (seq / PHASE) % 3 == 2;
    long k = hotOnly || m % 100 < 30 ? (m >>> 8) % HOT_KEYS : (m >>> 8) % keys;
    return String.format("key%06d", k);
  }

  /** Whether operation {@code seq} deletes its key (else it writes a value). */
  public boolean isDelete(long seq) {
    return (mix(seq) >>> 20) % 10 == 0;
  }

  /** A store value: {@code seq=<seq>;} then 100 to 399 bytes that depend on the seed and seq. */
  public byte[] storeValue(long seq) {
    long m = mix(seq ^ 0x5555L);
    StringBuilder sb = new StringBuilder("seq=").append(seq).append(';');
    int len = 100 + (int) (m % 300);
    for (int i = 0; i < len; i++) {
      sb.append((char) ('a' + (int) ((m >>> (i % 40)) + i) % 26));
    }
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * A dataset record's fields: {@code seq}, the indexed {@code field1} and {@code field2}, a
   * payload.
   */
  public Map<String, String> fields(long seq) {
    long m = mix(seq ^ 0xAAAAL);
    Map<String, String> f = new TreeMap<>();
    f.put("seq", Long.toString(seq));
    f.put("field1", "v" + m % 5);
    f.put("field2", "w" + (m >>> 8) % 4);
    f.put("payload", "x".repeat(50 + (int) ((m >>> 16) % 150)));
    return f;
  }

  /**
   * What the parent compares: a store value as text, or a record's fields as a sorted map's text.
   */
  public String canonical(long seq, WriterKind kind) {
    return kind.dataset() ? new TreeMap<>(fields(seq)).toString()
        : new String(storeValue(seq), StandardCharsets.US_ASCII);
  }

  /** The sequence number a stored value names, or -1 if it names none. */
  static long seqOfStoreValue(String value) {
    int semi = value.indexOf(';');
    if (!value.startsWith("seq=") || semi < 0) {
      return -1;
    }
    try {
      return Long.parseLong(value.substring(4, semi));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
