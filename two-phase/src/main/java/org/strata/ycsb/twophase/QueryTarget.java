package org.strata.ycsb.twophase;

/** What query threads of a running phase call: point lookups and scans. */
public interface QueryTarget {
  /** Looks {@code key} up. */
  void get(String key) throws Exception;

  /** Scans {@code limit} records from {@code from}. */
  void scan(String from, int limit) throws Exception;
}
