package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.memory.MemoryComponent;

/**
 * A read-only view of a closed tree for verification: the disk components its manifest lists, plus
 * the log operations above its flushed sequence number that the caller passes to {@link #apply}
 * (held in memory). Opens every file for reading only and writes nothing, unlike {@link
 * LsmTree#open}, which recovers (cuts a torn log tail, deletes leftovers, saves its configuration).
 */
public final class TreeSnapshot implements AutoCloseable {
  private final long flushedLsn;
  private final List<List<DiskComponent>> runs;
  private final MemoryComponent unflushed = new MemoryComponent(0);

  private TreeSnapshot(long flushedLsn, List<List<DiskComponent>> runs) {
    this.flushedLsn = flushedLsn;
    this.runs = runs;
  }

  /**
   * Opens the components listed in {@code dir}'s manifest (none if it has no manifest).
   *
   * @throws CorruptionException if the manifest or a component's footer is bad, or a listed file is
   *     missing
   */
  public static TreeSnapshot open(Path dir) throws IOException {
    Manifest m = Manifest.read(dir);
    if (m == null) {
      return new TreeSnapshot(0, List.of());
    }
    PageCache noCache = new PageCache(0);
    List<List<DiskComponent>> runs = new ArrayList<>();
    try {
      for (Manifest.RunEntry r : m.runs()) {
        List<DiskComponent> cs = new ArrayList<>();
        runs.add(cs);
        for (String f : r.files()) {
          Path p = dir.resolve(f);
          if (!Files.exists(p)) {
            throw new CorruptionException(dir.resolve(Manifest.FILE), -1,
                "the manifest lists component " + f + " but the file is missing");
          }
          cs.add(DiskComponent.open(p, cs.size(), noCache));
        }
      }
    } catch (RuntimeException e) {
      runs.forEach(cs -> cs.forEach(DiskComponent::release));
      throw e;
    }
    return new TreeSnapshot(m.flushedLsn(), runs);
  }

  /** The highest sequence number in the disk components. */
  public long flushedLsn() {
    return flushedLsn;
  }

  /** Adds a log operation ({@code value} null: anti-matter) if it is above the flushed number. */
  public void apply(long lsn, byte[] key, byte[] value) {
    if (lsn > flushedLsn) {
      unflushed.put(key, value, lsn);
    }
  }

  /** Every live key in order, newest version first wins, as a scan of the opened tree sees it. */
  public ScanCursor scan() {
    List<EntryCursor> sources = new ArrayList<>();
    sources.add(unflushed.cursor(null, null));
    for (List<DiskComponent> run : runs) {
      if (!run.isEmpty()) {
        sources.add(new ConcatCursor(run, c -> c.cursor(null, null)));
      }
    }
    MergingCursor merged = new MergingCursor(sources, true);
    return new ScanCursor() {
      private boolean ready;
      private boolean has;

      @Override
      public boolean hasNext() {
        if (!ready) {
          has = merged.next();
          ready = true;
        }
        return has;
      }

      @Override
      public KeyValue next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        ready = false;
        return new KeyValue(merged.key(), merged.value());
      }

      @Override
      public void close() {
        merged.close();
      }
    };
  }

  /** Releases the component files. */
  @Override
  public void close() {
    runs.forEach(cs -> cs.forEach(DiskComponent::release));
  }
}
