package org.strata.ycsb.twophase;

import java.util.EnumMap;
import java.util.Map;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats;
import org.strata.lsm.dataset.Dataset;

/**
 * Statistics summed over every tree of a dataset: disk components, bytes written by flushes and
 * merges, user bytes flushed, and write stalls (each tree's constraint stalls plus the dataset's
 * memory-full stalls).
 */
record DatasetTotals(long diskComponents, long bytesFlushed, long bytesMerged,
    long userBytesFlushed, long stallCount, double stallSeconds,
    Map<StallCause, StoreStats.StallTotals> byCause) {

  static DatasetTotals of(Dataset ds) {
    long components = 0;
    long flushed = 0;
    long merged = 0;
    long user = 0;
    Map<StallCause, StoreStats.StallTotals> byCause = new EnumMap<>(StallCause.class);
    for (StoreStats s : ds.treeStats().values()) {
      components += s.diskComponents();
      flushed += s.bytesFlushed();
      merged += s.bytesMerged();
      user += s.userBytesFlushed();
      s.stalls().forEach((c, t) -> byCause.merge(c, t, DatasetTotals::sum));
    }
    ds.memoryStalls().forEach((c, t) -> byCause.merge(c, t, DatasetTotals::sum));
    long stalls = 0;
    double seconds = 0;
    for (StoreStats.StallTotals t : byCause.values()) {
      stalls += t.count();
      seconds += t.seconds();
    }
    return new DatasetTotals(components, flushed, merged, user, stalls, seconds, byCause);
  }

  private static StoreStats.StallTotals sum(StoreStats.StallTotals a, StoreStats.StallTotals b) {
    return new StoreStats.StallTotals(a.count() + b.count(), a.seconds() + b.seconds());
  }

  /** Stalls by cause ({@code constraint}, {@code memoryFull}) between {@code before} and this. */
  Map<String, StoreStats.StallTotals> stallsSince(DatasetTotals before) {
    Map<String, StoreStats.StallTotals> m = new java.util.LinkedHashMap<>();
    for (StallCause c : StallCause.values()) {
      StoreStats.StallTotals a = byCause.get(c);
      StoreStats.StallTotals b = before.byCause.get(c);
      if (a != null && b != null) {
        m.put(c.jsonName(), new StoreStats.StallTotals(a.count() - b.count(),
            a.seconds() - b.seconds()));
      }
    }
    return m;
  }

  /** Engine write amplification of what happened between {@code before} and this. */
  double writeAmplificationSince(DatasetTotals before) {
    long user = userBytesFlushed - before.userBytesFlushed;
    long written = bytesFlushed - before.bytesFlushed + bytesMerged - before.bytesMerged;
    return user == 0 ? 0 : (double) written / user;
  }
}
