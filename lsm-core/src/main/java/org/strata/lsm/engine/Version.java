package org.strata.lsm.engine;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.memory.MemoryComponent;

/**
 * An immutable snapshot of an index's components: memory components (active first, then the
 * flushing ones, newest first) and runs (newest first). Readers retain the version they read, so a
 * flush or merge that installs a new version never pulls components from under them: a version
 * holds one reference on each disk component and gives them back when its own count drops to zero.
 */
final class Version {
  final List<MemoryComponent> memory;
  final List<Run> runs;
  private final AtomicInteger refs = new AtomicInteger(1);

  /** Takes a reference on every disk component in {@code runs}. */
  Version(List<MemoryComponent> memory, List<Run> runs) {
    this.memory = List.copyOf(memory);
    this.runs = List.copyOf(runs);
    for (Run r : this.runs) {
      for (DiskComponent c : r.components()) {
        c.retain();
      }
    }
  }

  /** Takes a reference unless the version is already dead; returns whether it did. */
  boolean tryRetain() {
    while (true) {
      int r = refs.get();
      if (r <= 0) {
        return false;
      }
      if (refs.compareAndSet(r, r + 1)) {
        return true;
      }
    }
  }

  void release() {
    int r = refs.decrementAndGet();
    if (r == 0) {
      for (Run run : runs) {
        for (DiskComponent c : run.components()) {
          c.release();
        }
      }
    } else if (r < 0) {
      throw new IllegalStateException("version released too often");
    }
  }

  int diskComponentCount() {
    int n = 0;
    for (Run r : runs) {
      n += r.components().size();
    }
    return n;
  }
}
