package org.strata.lsm.metrics;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.strata.lsm.LevelMerges;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats;
import org.strata.lsm.StoreStats.StallTotals;
import org.strata.lsm.spi.RunInfo;

/**
 * The compaction-stats table of a store or index, cumulative over its life: one row for its
 * flushes and one per level (runs and components now, their bytes, and the merges into the level:
 * bytes read and written, write amplification, count, seconds), a sum row, then the stalls. What
 * {@code strata stats} prints and the periodic statistics dump writes into the store's LOG; both
 * read {@link StoreStats} and {@code LsmStore.runs()}, the figures of {@code stats --json}.
 *
 * <p>A level's write amplification is the bytes written into it over the user bytes flushed, so
 * that the flush row's and the levels' add up to the store's write amplification (the sum row).
 * Bytes are binary megabytes (MiB).
 */
public final class CompactionStatsTable {
  private CompactionStatsTable() {}

  /** The table of {@code s} and {@code runs}, each line ending in a newline. */
  public static String of(StoreStats s, List<RunInfo> runs) {
    Map<Integer, LevelTotals> shape = LevelTotals.of(runs);
    TreeSet<Integer> levels = new TreeSet<>(shape.keySet());
    levels.addAll(s.mergesByLevel().keySet());
    double user = s.userBytesFlushed();
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "%-6s %5s %6s %11s %11s %11s %7s %7s %9s%n", "level",
        "runs", "comps", "size MiB", "read MiB", "write MiB", "W-Amp", "count", "seconds"));
    b.append(String.format(Locale.ROOT, "%-6s %5s %6s %11s %11s %11s %7s %7d %9s%n", "flush",
        "-", "-", "-", "-", mib(s.bytesFlushed()), amp(s.bytesFlushed(), user), s.flushes(),
        "-"));
    long read = 0;
    long written = s.bytesFlushed();
    long merges = 0;
    double seconds = 0;
    for (int level : levels) {
      LevelTotals t = shape.getOrDefault(level, new LevelTotals(0, 0, 0));
      LevelMerges m = s.mergesByLevel().getOrDefault(level, new LevelMerges(0, 0, 0, 0));
      b.append(String.format(Locale.ROOT, "%-6s %5d %6d %11s %11s %11s %7s %7d %9.1f%n",
          "L" + level, t.runs(), t.components(), mib(t.bytes()), mib(m.bytesRead()),
          mib(m.bytesWritten()),
          amp(m.bytesWritten(), user), m.merges(), m.seconds()));
      read += m.bytesRead();
      written += m.bytesWritten();
      merges += m.merges();
      seconds += m.seconds();
    }
    b.append(String.format(Locale.ROOT, "%-6s %5d %6d %11s %11s %11s %7s %7d %9.1f%n", "sum",
        s.runs(), s.diskComponents(), mib(s.diskBytes()), mib(read), mib(written),
        amp(written, user), merges, seconds));
    StringBuilder stalls = new StringBuilder("stalls:");
    for (StallCause c : StallCause.values()) {
      StallTotals t = s.stalls().getOrDefault(c, new StallTotals(0, 0));
      stalls.append(String.format(Locale.ROOT, " %s %d (%.3f s)", c.jsonName(), t.count(),
          t.seconds()));
    }
    stalls.append(s.stalledNow() ? "; a writer is waiting now" : "; none now");
    b.append(stalls).append(String.format(Locale.ROOT, "%n"));
    return b.toString();
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / (double) (1 << 20));
  }

  private static String amp(long bytes, double user) {
    return user <= 0 ? "-" : String.format(Locale.ROOT, "%.2f", bytes / user);
  }
}
