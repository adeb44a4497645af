package org.strata.ycsb.feed;

import java.util.concurrent.atomic.AtomicLong;

/** Counters of a feed server, updated by its connections. Thread-safe. */
public final class FeedStats {
  final AtomicLong connections = new AtomicLong();
  final AtomicLong lines = new AtomicLong();
  final AtomicLong upserts = new AtomicLong();
  final AtomicLong deletes = new AtomicLong();
  final AtomicLong reads = new AtomicLong();
  final AtomicLong rejected = new AtomicLong();
  final AtomicLong failed = new AtomicLong();
  final AtomicLong maxWaiting = new AtomicLong();
  final AtomicLong dropped = new AtomicLong();

  /** A snapshot. */
  public Snapshot snapshot() {
    return new Snapshot(connections.get(), lines.get(), upserts.get(), deletes.get(), reads.get(),
        rejected.get(), failed.get(), dropped.get(), maxWaiting.get());
  }

  /**
   * Counts since the server started.
   *
   * @param connections connections accepted
   * @param lines complete lines received
   * @param upserts upserts applied
   * @param deletes deletes applied
   * @param reads gets and scans answered
   * @param rejected lines rejected (malformed, unknown op, missing key, bad field, too long)
   * @param failed well-formed requests the dataset failed to apply (storage errors)
   * @param dropped received lines dropped unapplied because the server stopped first
   * @param maxWaiting most lines ever waiting to be applied on one connection (the bound that
   *     back-pressure keeps)
   */
  public record Snapshot(long connections, long lines, long upserts, long deletes, long reads,
      long rejected, long failed, long dropped, long maxWaiting) {
    /** Writes applied. */
    public long applied() {
      return upserts + deletes;
    }
  }
}
