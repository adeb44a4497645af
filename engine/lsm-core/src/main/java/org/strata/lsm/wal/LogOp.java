package org.strata.lsm.wal;

/**
 * One operation inside a log record: an upsert of {@code value} for {@code key}, or anti-matter
 * (a delete) when {@code value} is null.
 */
public record LogOp(byte[] key, byte[] value) {
  public boolean isDelete() {
    return value == null;
  }
}
