package org.strata.lsm.component;

/**
 * A forward cursor over entries in ascending key order. {@link #next()} advances; the accessors
 * describe the current entry. Returned arrays must not be modified.
 *
 * <p>{@link #key()} and {@link #value()} return arrays that stay valid after the cursor moves on.
 * A reader that only passes the value along (a merge writing it into its output) can instead take
 * it as a slice, {@link #valueArray()} from {@link #valueOffset()} for {@link #valueLength()}
 * bytes, which a cursor reading pages in place gives without copying; a slice is valid only until
 * the next call of {@link #next()} or {@link #close()}.
 */
public interface EntryCursor extends AutoCloseable {
  /** Moves to the next entry; false at the end. */
  boolean next();

  /** The current key. */
  byte[] key();

  /** The current value, or null for anti-matter. */
  byte[] value();

  /** Whether the current entry is anti-matter. */
  default boolean isAntimatter() {
    return value() == null;
  }

  /**
   * The array holding the current value (which must not be anti-matter), valid until the cursor
   * moves on: the value is {@code valueLength()} bytes from {@code valueOffset()}.
   */
  default byte[] valueArray() {
    return value();
  }

  /** Where the current value starts in {@link #valueArray()}. */
  default int valueOffset() {
    return 0;
  }

  /** The current value's length in bytes. */
  default int valueLength() {
    byte[] v = value();
    return v == null ? 0 : v.length;
  }

  @Override
  default void close() {}
}
