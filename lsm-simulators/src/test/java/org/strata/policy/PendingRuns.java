package org.strata.policy;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.RunInfo;

/** Runs with given levels and sizes (newest first) that records merges without applying them. */
final class PendingRuns implements MergeContext {
  final List<RunInfo> runs = new ArrayList<>();
  final List<String> merges = new ArrayList<>();
  private long nextId = 1;

  @Override
  public long largestFlushBytes() {
    return 1; // M = 1 unit
  }

  PendingRuns add(int level, long size) {
    long id = nextId++;
    runs.add(0, new RunInfo(id, level, List.of(new ComponentInfo("c" + id, id, id, size, size,
        1, new byte[0], new byte[0])), false));
    return this;
  }

  @Override
  public List<RunInfo> runs() {
    return List.copyOf(runs);
  }

  @Override
  public boolean scheduleMerge(List<RunInfo> window, int level, long target) {
    merges.add(shape(window) + " -> " + level);
    for (RunInfo r : window) {
      runs.set(runs.indexOf(r), new RunInfo(r.runId(), r.level(), r.components(), true));
    }
    return true;
  }

  /** "level:size" of every run, newest first. */
  static String shape(List<RunInfo> runs) {
    StringBuilder b = new StringBuilder();
    for (RunInfo r : runs) {
      b.append(b.length() == 0 ? "" : " ").append(r.level()).append(':').append(r.sizeBytes());
    }
    return b.toString();
  }
}
