package org.strata.lsm.engine;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.RunInfo;

/**
 * A sorted run of one index: disk components with disjoint key ranges, in key order, at a level.
 * Immutable; the engine replaces whole runs when merges complete.
 */
record Run(long runId, int level, List<DiskComponent> components) {
  Run {
    components = List.copyOf(components);
  }

  RunInfo info(boolean merging) {
    List<ComponentInfo> infos = new ArrayList<>(components.size());
    for (DiskComponent c : components) {
      infos.add(c.info());
    }
    return new RunInfo(runId, level, infos, merging);
  }

  /** Bytes on disk, CL-SSTables' log segments included. */
  long sizeBytes() {
    long s = 0;
    for (DiskComponent c : components) {
      s += c.storedBytes();
    }
    return s;
  }

  long leafPages() {
    long s = 0;
    for (DiskComponent c : components) {
      s += c.meta().leafPageCount();
    }
    return s;
  }

  long entries() {
    long s = 0;
    for (DiskComponent c : components) {
      s += c.meta().entryCount();
    }
    return s;
  }
}
