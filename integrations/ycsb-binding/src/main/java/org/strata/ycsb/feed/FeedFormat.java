package org.strata.ycsb.feed;

import java.util.Objects;

/**
 * What a feed connection's lines are (docs/two-phase.md, "Feed protocol").
 *
 * <ul>
 *   <li>{@link Kind#STRATA}: Strata's envelope, {@code {"op":"upsert","key":"k1","fields":
 *       {...}}}, with gets, scans, stats and acknowledgements answered on the connection.
 *   <li>{@link Kind#ASTERIXDB}: plain JSON records as AsterixDB's socket feed adapter takes them,
 *       {@code {"id":"t1","text":"hello","n":5}}, keyed by {@code keyField}, every value of any
 *       JSON type stored faithfully ({@link org.strata.lsm.dataset.PlainRecords}); like
 *       AsterixDB's adapter, the server sends nothing back (bad lines are counted and logged).
 * </ul>
 *
 * @param kind the kind of lines
 * @param keyField the field that holds the primary key ({@link Kind#ASTERIXDB} only; null else)
 */
public record FeedFormat(Kind kind, String keyField) {
  /** The kinds of lines. */
  public enum Kind {
    STRATA, ASTERIXDB
  }

  /** Strata's envelope. */
  public static final FeedFormat STRATA = new FeedFormat(Kind.STRATA, null);

  public FeedFormat {
    Objects.requireNonNull(kind, "kind");
    if (kind == Kind.ASTERIXDB && (keyField == null || keyField.isEmpty())) {
      throw new IllegalArgumentException("the asterixdb feed format needs a key field"
          + " (--key-field NAME)");
    }
    if (kind == Kind.STRATA && keyField != null) {
      throw new IllegalArgumentException("--key-field goes with --format asterixdb; Strata's"
          + " envelope carries its key in \"key\"");
    }
  }

  /** Plain records keyed by {@code keyField}. */
  public static FeedFormat asterixdb(String keyField) {
    return new FeedFormat(Kind.ASTERIXDB, keyField);
  }
}
