package org.strata.lsm;

/** Size limits on keys and values, checked before anything is written. */
public final class Limits {
  /** Largest key: 64 KiB. */
  public static final int MAX_KEY_BYTES = 64 * 1024;
  /** Largest value: 16 MiB. */
  public static final int MAX_VALUE_BYTES = 16 * 1024 * 1024;

  private Limits() {}

  /** Rejects a null, empty or oversized key. */
  public static void checkKey(byte[] key) {
    if (key == null || key.length == 0) {
      throw new IllegalArgumentException("key is empty; keys must have 1 to " + MAX_KEY_BYTES
          + " bytes");
    }
    if (key.length > MAX_KEY_BYTES) {
      throw new IllegalArgumentException("key has " + key.length + " bytes; keys must have 1 to "
          + MAX_KEY_BYTES + " bytes (64 KiB)");
    }
  }

  /** Rejects a null or oversized value (empty values are allowed). */
  public static void checkValue(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("value is null; use delete to remove a key");
    }
    if (value.length > MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("value has " + value.length + " bytes; values may have"
          + " at most " + MAX_VALUE_BYTES + " bytes (16 MiB)");
    }
  }
}
