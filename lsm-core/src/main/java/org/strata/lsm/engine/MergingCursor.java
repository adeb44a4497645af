package org.strata.lsm.engine;

import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import org.strata.lsm.component.EntryCursor;

/**
 * Merges sorted cursors with a priority queue ordered by (key, recency rank). For each key only the
 * entry of the newest source (lowest rank) survives; older versions are dropped. Anti-matter is
 * either kept (a partial merge must keep hiding older data) or skipped (scans, and merges that
 * include the oldest data).
 *
 * <p>Public so the k-way merge can be measured on its own (the {@code benchmarks} module); the
 * engine builds it for scans and merges. Closing it closes every source.
 */
public final class MergingCursor implements EntryCursor {
  private final PriorityQueue<Head> queue;
  private final List<? extends EntryCursor> sources;
  private final boolean skipAntimatter;
  private byte[] key;
  private byte[] value;

  private static final class Head {
    final EntryCursor cursor;
    final int rank;
    byte[] key;
    byte[] value;

    Head(EntryCursor cursor, int rank) {
      this.cursor = cursor;
      this.rank = rank;
    }

    boolean advance() {
      if (cursor.next()) {
        key = cursor.key();
        value = cursor.value();
        return true;
      }
      return false;
    }
  }

  /**
   * @param sources cursors, newest first (index = rank)
   * @param skipAntimatter whether anti-matter entries are dropped from the output
   */
  public MergingCursor(List<? extends EntryCursor> sources, boolean skipAntimatter) {
    this.sources = sources;
    this.skipAntimatter = skipAntimatter;
    this.queue = new PriorityQueue<>(Math.max(1, sources.size()), (a, b) -> {
      int c = Arrays.compareUnsigned(a.key, b.key);
      return c != 0 ? c : Integer.compare(a.rank, b.rank);
    });
    for (int i = 0; i < sources.size(); i++) {
      Head h = new Head(sources.get(i), i);
      if (h.advance()) {
        queue.add(h);
      }
    }
  }

  @Override
  public boolean next() {
    while (!queue.isEmpty()) {
      Head h = queue.poll();
      key = h.key;
      value = h.value;
      if (h.advance()) {
        queue.add(h);
      }
      while (!queue.isEmpty() && Arrays.equals(queue.peek().key, key)) {
        Head older = queue.poll();
        if (older.advance()) {
          queue.add(older);
        }
      }
      if (value == null && skipAntimatter) {
        continue;
      }
      return true;
    }
    key = null;
    value = null;
    return false;
  }

  @Override
  public byte[] key() {
    return key;
  }

  @Override
  public byte[] value() {
    return value;
  }

  @Override
  public void close() {
    for (EntryCursor c : sources) {
      c.close();
    }
  }
}
