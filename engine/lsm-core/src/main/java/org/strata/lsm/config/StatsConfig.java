package org.strata.lsm.config;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The {@code stats} section.
 *
 * @param dumpInterval {@code stats.dump-interval}: seconds between two dumps of the compaction
 *     statistics into the store's or dataset's {@code LOG} (as RocksDB's {@code
 *     stats_dump_period_sec}, 600 by default); 0 for none; null means the default
 */
public record StatsConfig(@JsonProperty("dump-interval") Integer dumpInterval) {
  public StatsConfig {
    dumpInterval = ConfigChecks.integer("stats.dump-interval", dumpInterval, 600, 0, 86_400);
  }

  /** The default: a dump every 600 seconds. */
  public static StatsConfig defaults() {
    return new StatsConfig(null);
  }
}
