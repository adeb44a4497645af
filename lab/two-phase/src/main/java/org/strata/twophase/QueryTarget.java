package org.strata.twophase;

import java.util.List;

/** What query threads of a running phase call: point lookups, scans and secondary queries. */
public interface QueryTarget {
  /** Looks {@code key} up. */
  void get(String key) throws Exception;

  /** Scans {@code limit} records from {@code from}. */
  void scan(String from, int limit) throws Exception;

  /**
   * The primary keys, in order, of the records whose field indexed by secondary index {@code
   * index} lies in {@code [from, to]} now (the paper's query: scan the secondary index, sort the
   * primary keys, fetch each record from the primary index, keep it if its field is still in the
   * range). A system without secondary indexes refuses it.
   */
  default List<String> secondaryRange(String index, String from, String to) throws Exception {
    throw new UnsupportedOperationException("this system has no secondary indexes");
  }
}
