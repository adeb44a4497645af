package org.strata.lsm.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.strata.lsm.KeyValue;
import org.strata.lsm.Limits;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.component.ComponentMeta;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.KeyHash;
import org.strata.lsm.memory.MemoryComponent;

/**
 * Point lookups and range scans of one index over its memory components (newest first) and its
 * runs (newest first; in a run, the one component whose key range may hold the key). A read takes
 * no lock: it retains the current {@link Version}, so flushes and merges that install new versions
 * meanwhile never remove a component it reads; a scan keeps its version until it is closed.
 */
final class ReadPath {
  private final VersionSet versions;
  private final OperationCounter operations;

  ReadPath(VersionSet versions, OperationCounter operations) {
    this.versions = versions;
    this.operations = operations;
  }

  /** The newest value of {@code key}; empty if absent or deleted. Counts the lookup. */
  Optional<byte[]> get(byte[] key) {
    Optional<byte[]> v = lookup(key);
    operations.lookedUp(v.isPresent());
    return v;
  }

  private Optional<byte[]> lookup(byte[] key) {
    Limits.checkKey(key);
    Version v = versions.acquire();
    try {
      for (MemoryComponent mc : v.memory) {
        MemoryComponent.Versioned e = mc.get(key);
        if (e != null) {
          return Optional.ofNullable(e.value());
        }
      }
      long hash = KeyHash.hash64(key);
      for (Run run : v.runs) {
        DiskComponent c = componentFor(run, key);
        if (c == null) {
          continue;
        }
        DiskComponent.Lookup l = c.get(key, hash);
        if (l != null) {
          return Optional.ofNullable(l.value());
        }
      }
      return Optional.empty();
    } finally {
      v.release();
    }
  }

  /** The component of a run whose key range may hold {@code key}, or null. */
  private static DiskComponent componentFor(Run run, byte[] key) {
    List<DiskComponent> cs = run.components();
    if (cs.size() == 1) {
      return cs.get(0);
    }
    int lo = 0;
    int hi = cs.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      ComponentMeta m = cs.get(mid).meta();
      if (Arrays.compareUnsigned(key, m.minKey()) < 0) {
        hi = mid - 1;
      } else if (Arrays.compareUnsigned(key, m.maxKey()) > 0) {
        lo = mid + 1;
      } else {
        return cs.get(mid);
      }
    }
    return null;
  }

  /** Live entries with {@code from <= key <= to} (null bounds are open), in key order. */
  ScanCursor scan(byte[] from, byte[] to) {
    Version v = versions.acquire();
    try {
      List<EntryCursor> sources = new ArrayList<>();
      if (from == null || to == null || Arrays.compareUnsigned(from, to) <= 0) {
        for (MemoryComponent mc : v.memory) {
          sources.add(mc.cursor(from, to));
        }
        for (Run run : v.runs) {
          List<DiskComponent> overlapping = new ArrayList<>();
          for (DiskComponent c : run.components()) {
            ComponentMeta m = c.meta();
            boolean after = to != null && Arrays.compareUnsigned(m.minKey(), to) > 0;
            boolean before = from != null && Arrays.compareUnsigned(m.maxKey(), from) < 0;
            if (!after && !before) {
              overlapping.add(c);
            }
          }
          if (!overlapping.isEmpty()) {
            sources.add(new ConcatCursor(overlapping, c -> c.cursor(from, to)));
          }
        }
      }
      return new VersionScan(v, new MergingCursor(sources, true));
    } catch (RuntimeException e) {
      v.release();
      throw e;
    }
  }

  /** A scan that holds its version until it is exhausted or closed. */
  private static final class VersionScan implements ScanCursor {
    private final Version version;
    private final MergingCursor cursor;
    private boolean ready;
    private boolean hasNext;
    private boolean closed;

    VersionScan(Version version, MergingCursor cursor) {
      this.version = version;
      this.cursor = cursor;
    }

    @Override
    public boolean hasNext() {
      if (closed) {
        return false;
      }
      if (!ready) {
        hasNext = cursor.next();
        ready = true;
        if (!hasNext) {
          close();
        }
      }
      return hasNext;
    }

    @Override
    public KeyValue next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      ready = false;
      return new KeyValue(cursor.key(), cursor.value());
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        cursor.close();
        version.release();
      }
    }
  }
}
