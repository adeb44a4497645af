package org.strata.twophase;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats;

/**
 * Statistics summed over every tree of a Strata dataset (or of one store): disk components, bytes
 * written by flushes and merges, user bytes flushed, write stalls (each tree's constraint stalls
 * plus the dataset's memory-full stalls), pending merge bytes and disk bytes.
 */
record DatasetTotals(long diskComponents, long bytesFlushed, long bytesMerged,
    long userBytesFlushed, long stallCount, double stallSeconds,
    Map<StallCause, StoreStats.StallTotals> byCause, long pendingMergeBytes, long diskBytes,
    boolean stalledNow) {

  static DatasetTotals of(Iterable<StoreStats> trees,
      Map<StallCause, StoreStats.StallTotals> datasetStalls) {
    long components = 0;
    long flushed = 0;
    long merged = 0;
    long user = 0;
    long pending = 0;
    long disk = 0;
    boolean stalled = false;
    Map<StallCause, StoreStats.StallTotals> byCause = new EnumMap<>(StallCause.class);
    for (StoreStats s : trees) {
      components += s.diskComponents();
      flushed += s.bytesFlushed();
      merged += s.bytesMerged();
      user += s.userBytesFlushed();
      pending += s.pendingMergeBytes();
      disk += s.diskBytes();
      stalled |= s.stalledNow();
      s.stalls().forEach((c, t) -> byCause.merge(c, t, DatasetTotals::sum));
    }
    datasetStalls.forEach((c, t) -> byCause.merge(c, t, DatasetTotals::sum));
    long stalls = 0;
    double seconds = 0;
    for (StoreStats.StallTotals t : byCause.values()) {
      stalls += t.count();
      seconds += t.seconds();
    }
    return new DatasetTotals(components, flushed, merged, user, stalls, seconds, byCause, pending,
        disk, stalled);
  }

  private static StoreStats.StallTotals sum(StoreStats.StallTotals a, StoreStats.StallTotals b) {
    return new StoreStats.StallTotals(a.count() + b.count(), a.seconds() + b.seconds());
  }

  /** As the system-neutral snapshot the runner samples. */
  TargetStats toTargetStats(String shape) {
    Map<String, StoreStats.StallTotals> causes = new LinkedHashMap<>();
    for (StallCause c : StallCause.values()) {
      StoreStats.StallTotals t = byCause.get(c);
      if (t != null) {
        causes.put(c.jsonName(), t);
      }
    }
    return new TargetStats(diskComponents, bytesFlushed, bytesMerged, userBytesFlushed,
        stallCount, stallSeconds, stalledNow, pendingMergeBytes, diskBytes, causes, shape);
  }
}
