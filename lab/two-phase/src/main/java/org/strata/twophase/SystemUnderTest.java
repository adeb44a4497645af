package org.strata.twophase;

import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A store that a two-phase run writes to, open on one directory for one phase (docs/compare.md).
 * The runner gives every system the same records through {@link #write}; writes may come from
 * several threads at once and block while the system stalls.
 */
@SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
public interface SystemUnderTest extends AutoCloseable {

  /** Writes one record version (an insert or a blind update); blocks while writes are stopped. */
  void write(GeneratedRecord record) throws Exception;

  /**
   * The value bytes stored under {@code key} ({@link GeneratedRecord#valueBytes()} of the last
   * version written), or null if the key is absent.
   */
  byte[] read(String key) throws Exception;

  /** Writes every memory component to disk and waits for it. */
  void flush() throws Exception;

  /** Waits until no merge is scheduled or running (after loading). */
  void awaitMerges() throws Exception;

  /** The current statistics. Called once a second by the sampler, from its own thread. */
  TargetStats stats();

  /** Merges completed since {@code sinceMillis} by their number of inputs, where known. */
  default SortedMap<Integer, Long> mergeWidths(long sinceMillis) {
    return new TreeMap<>();
  }

  /**
   * Each tree's statistics now (Strata: keyed {@code p<partition>/<index>} for a dataset, {@code
   * primary} for a store), with its merge log; empty if the system does not report them.
   */
  default java.util.Map<String, org.strata.lsm.StoreStats> treeStats() {
    return java.util.Map.of();
  }

  /**
   * Each tree's sorted runs now, newest first, keyed as {@link #treeStats()}; empty if the system
   * does not report them.
   */
  default java.util.Map<String, java.util.List<org.strata.lsm.spi.RunInfo>> treeRuns() {
    return java.util.Map.of();
  }

  /** The read cache's counters now, or null if the system does not report them. */
  default CacheCounters cacheCounters() {
    return null;
  }

  /** Point lookups and scans for query threads, or null if the system offers none here. */
  default QueryTarget queries() {
    return null;
  }

  /** Closes the system, leaving its files for a later open of a copy. */
  @Override
  void close() throws Exception;
}
