package org.strata.lsm.wal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.strata.lsm.Limits;

/**
 * Upserts and deletes applied together: one log record, so after a crash either all or none of
 * them are present, and one force under {@code sync} durability.
 */
public final class WriteBatch {
  private final List<LogOp> ops = new ArrayList<>();
  private long bytes;

  /** Adds an upsert. */
  public WriteBatch put(byte[] key, byte[] value) {
    Limits.checkKey(key);
    Limits.checkValue(value);
    ops.add(new LogOp(key, value));
    bytes += key.length + value.length;
    return this;
  }

  /** Adds a delete (anti-matter). */
  public WriteBatch delete(byte[] key) {
    Limits.checkKey(key);
    ops.add(new LogOp(key, null));
    bytes += key.length;
    return this;
  }

  public int size() {
    return ops.size();
  }

  public boolean isEmpty() {
    return ops.isEmpty();
  }

  /** Key and value bytes in the batch. */
  public long userBytes() {
    return bytes;
  }

  /** The operations, in order. */
  public List<LogOp> ops() {
    return Collections.unmodifiableList(ops);
  }
}
