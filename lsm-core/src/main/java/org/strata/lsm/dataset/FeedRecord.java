package org.strata.lsm.dataset;

import java.util.Map;

/**
 * One parsed line of newline-delimited JSON ingestion ({@code strata import}, the feed server): an
 * upsert of a record's fields or a delete of a primary key.
 *
 * @param op the operation
 * @param key the primary key
 * @param fields the record's fields for an upsert; empty for a delete
 */
public record FeedRecord(Op op, String key, Map<String, String> fields) {
  /** What a line asks for. */
  public enum Op {
    UPSERT, DELETE
  }

  /** Applies this record to {@code dataset}. */
  public void applyTo(Dataset dataset) {
    if (op == Op.UPSERT) {
      dataset.upsert(key, fields);
    } else {
      dataset.delete(key);
    }
  }
}
