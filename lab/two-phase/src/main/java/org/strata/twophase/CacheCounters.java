package org.strata.twophase;

/**
 * A system's read-cache counters, cumulative since it was opened (Strata: page cache hits and
 * misses of all trees; RocksDB: the {@code BLOCK_CACHE_HIT} and {@code BLOCK_CACHE_MISS}
 * tickers).
 *
 * @param hits lookups the cache answered
 * @param misses lookups that had to read the file
 */
public record CacheCounters(long hits, long misses) {

  /** The hit ratio of what happened between {@code before} and this snapshot (NaN if nothing). */
  public double hitRatioSince(CacheCounters before) {
    long h = hits - before.hits;
    long m = misses - before.misses;
    return h + m <= 0 ? Double.NaN : (double) h / (h + m);
  }
}
