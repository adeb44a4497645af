package org.strata.lsm.component;

/**
 * A forward cursor over entries in ascending key order. {@link #next()} advances; the accessors
 * describe the current entry. Returned arrays must not be modified.
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

  @Override
  default void close() {}
}
