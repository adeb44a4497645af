package org.strata.ycsb;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;

/**
 * The datasets open in this JVM, shared by YCSB's client threads and reference-counted. YCSB makes
 * one {@code DB} object per client thread and calls {@code init}/{@code cleanup} on each, so the
 * embedded binding needs one store per directory per JVM; the last {@code cleanup} closes it. This
 * is the one piece of process-wide state in Strata, and it exists only because YCSB's binding
 * model requires it.
 */
final class SharedDatasets {
  private static final SharedDatasets INSTANCE = new SharedDatasets();

  private final Map<Path, Entry> open = new HashMap<>();

  private static final class Entry {
    final Dataset dataset;
    int references;

    Entry(Dataset dataset) {
      this.dataset = dataset;
    }
  }

  static SharedDatasets instance() {
    return INSTANCE;
  }

  /** Opens {@code dir} (or shares the open dataset) and counts a reference. */
  synchronized Dataset acquire(Path dir, DatasetConfig config) {
    Path key = dir.toAbsolutePath().normalize();
    Entry e = open.get(key);
    if (e == null) {
      e = new Entry(Dataset.open(key, config));
      open.put(key, e);
    }
    e.references++;
    return e.dataset;
  }

  /** Drops a reference; the last one closes the dataset. */
  synchronized void release(Dataset dataset) {
    Path key = dataset.directory().toAbsolutePath().normalize();
    Entry e = open.get(key);
    if (e == null || e.dataset != dataset) {
      return;
    }
    if (--e.references == 0) {
      open.remove(key);
      dataset.close();
    }
  }
}
