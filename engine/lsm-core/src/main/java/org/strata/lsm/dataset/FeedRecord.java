package org.strata.lsm.dataset;

import java.util.Map;

/**
 * One parsed line of newline-delimited JSON ingestion ({@code strata import}, the feed server): an
 * upsert of a record's fields or a delete of a primary key; on a feed connection also a point read
 * ({@code get}), a primary-key scan ({@code scan}) or the server's statistics ({@code stats}).
 *
 * @param op the operation
 * @param key the primary key (the start key of a scan; empty for stats)
 * @param fields the record's fields for an upsert; empty otherwise
 * @param ack true if the sender asked for a reply line to this write (feed connections only)
 * @param count records a scan returns at most; 0 for other operations
 */
public record FeedRecord(Op op, String key, Map<String, String> fields, boolean ack, int count) {
  /** What a line asks for. */
  public enum Op {
    UPSERT, DELETE, GET, SCAN,
    /** The feed server's counters and the dataset's statistics (feed connections only). */
    STATS
  }

  /** A write without an acknowledgement, as {@code strata import} reads them. */
  public FeedRecord(Op op, String key, Map<String, String> fields) {
    this(op, key, fields, false, 0);
  }

  /** True for upserts and deletes. */
  public boolean isWrite() {
    return op == Op.UPSERT || op == Op.DELETE;
  }

  /** Applies this write to {@code dataset}. */
  public void applyTo(Dataset dataset) {
    switch (op) {
      case UPSERT -> dataset.upsert(key, fields);
      case DELETE -> dataset.delete(key);
      default -> throw new IllegalStateException(op + " is not a write");
    }
  }
}
