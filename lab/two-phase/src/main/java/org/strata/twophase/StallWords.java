package org.strata.twophase;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats.StallTotals;

/**
 * Stall causes in words, for progress lines and reports. The causes are the engine's {@link
 * StallCause}, keyed in {@link TargetStats#stallsByCause()} by their {@link StallCause#jsonName()};
 * a system that does not split its stalls (RocksDB) reports none.
 */
final class StallWords {
  private StallWords() {}

  /** A few words for the progress line, e.g. {@code memory full}; an unknown name as it is. */
  static String shortName(String cause) {
    return StallCause.fromJsonName(cause).map(StallWords::shortName).orElse(cause);
  }

  /** A few words for the progress line, e.g. {@code memory full}. */
  static String shortName(StallCause cause) {
    return switch (cause) {
      case MEMORY_FULL -> "memory full";
      case CONSTRAINT -> "component constraint";
    };
  }

  /** One sentence that says what the cause means and what limits it; an unknown name as it is. */
  static String explain(String cause, long writeRateLimitBytes) {
    return StallCause.fromJsonName(cause).map(c -> explain(c, writeRateLimitBytes))
        .orElse(cause);
  }

  /** One sentence that says what the cause means and what limits it. */
  static String explain(StallCause cause, long writeRateLimitBytes) {
    return switch (cause) {
      case MEMORY_FULL -> "memory full: every memory component was full and writers waited"
          + " for a flush to free one" + (writeRateLimitBytes > 0 ? " (flushes and merges"
          + " share the I/O budget of " + org.strata.lsm.config.Quantities.human(
              writeRateLimitBytes) + "/s)" : "");
      case CONSTRAINT -> "component constraint: the merge policy's limit on disk components"
          + " was reached and writers waited for a merge to finish";
    };
  }

  /**
   * The cause with the most stalled time in {@code since} (ties: the most stalls), or null if no
   * cause has any.
   */
  static String dominant(Map<String, StallTotals> since) {
    String best = null;
    StallTotals b = null;
    for (Map.Entry<String, StallTotals> e : since.entrySet()) {
      StallTotals t = e.getValue();
      if (t.count() <= 0 && t.seconds() <= 0) {
        continue;
      }
      if (b == null || t.seconds() > b.seconds()
          || (t.seconds() == b.seconds() && t.count() > b.count())) {
        best = e.getKey();
        b = t;
      }
    }
    return best;
  }

  /**
   * The stalls of a phase by cause in words, e.g. {@code memory full 640 (99.1 s), component
   * constraint 8 (0.3 s)}; empty if the system does not split them or there were none.
   */
  static String byCause(Map<String, StallTotals> byCause) {
    List<String> parts = new ArrayList<>();
    byCause.forEach((cause, t) -> {
      if (t.count() > 0 || t.seconds() > 0) {
        parts.add(String.format(Locale.ROOT, "%s %d (%.1f s)", shortName(cause), t.count(),
            t.seconds()));
      }
    });
    return String.join(", ", parts);
  }
}
