package org.strata.lsm.engine;

import java.util.Arrays;
import java.util.List;
import org.strata.lsm.component.EntryCursor;

/**
 * Merges sorted cursors with a binary min-heap of their heads ordered by (key, recency rank). For
 * each key only the entry of the newest source (lowest rank) survives; older versions are dropped.
 * Anti-matter is either kept (a partial merge must keep hiding older data) or skipped (scans, and
 * merges that include the oldest data). Each step advances the top head in place and sifts it
 * down once (a priority queue's poll and add would sift twice).
 *
 * <p>The source of the current entry stays on it until the next call of {@link #next()}, so its
 * value is read from the source only if asked for, and a source that reads pages in place can
 * hand it over as a slice ({@link #valueArray()}) without copying it: a merge writes each value
 * straight from its input's read buffer, and never copies the older versions it drops.
 *
 * <p>Public so the k-way merge can be measured on its own (the {@code benchmarks} module); the
 * engine builds it for scans and merges. Closing it closes every source.
 */
public final class MergingCursor implements EntryCursor {
  /** The heads with entries left, a min-heap in {@code [0, size)}. */
  private final Head[] heap;
  private int size;
  private final List<? extends EntryCursor> sources;
  private final boolean skipAntimatter;
  /** The head on the current entry, at the top of the heap until the next call; null: none. */
  private Head current;
  private byte[] key;

  private static final class Head {
    final EntryCursor cursor;
    final int rank;
    byte[] key;

    Head(EntryCursor cursor, int rank) {
      this.cursor = cursor;
      this.rank = rank;
    }

    boolean advance() {
      if (cursor.next()) {
        key = cursor.key();
        return true;
      }
      key = null;
      return false;
    }

    /** Orders by key, then by rank (the newer source first). */
    boolean before(Head o) {
      int c = Arrays.compareUnsigned(key, o.key);
      return c != 0 ? c < 0 : rank < o.rank;
    }
  }

  /**
   * @param sources cursors, newest first (index = rank)
   * @param skipAntimatter whether anti-matter entries are dropped from the output
   */
  public MergingCursor(List<? extends EntryCursor> sources, boolean skipAntimatter) {
    this.sources = sources;
    this.skipAntimatter = skipAntimatter;
    this.heap = new Head[sources.size()];
    for (int i = 0; i < sources.size(); i++) {
      Head h = new Head(sources.get(i), i);
      if (h.advance()) {
        heap[size++] = h;
      }
    }
    for (int i = size / 2 - 1; i >= 0; i--) {
      siftDown(i);
    }
  }

  @Override
  public boolean next() {
    if (current != null) {
      current = null;
      passKey(key); // the entry returned last, then its older versions
    }
    while (size > 0) {
      Head h = heap[0];
      if (skipAntimatter && h.cursor.isAntimatter()) {
        passKey(h.key);
        continue;
      }
      current = h;
      key = h.key;
      return true;
    }
    key = null;
    return false;
  }

  /** Moves every head on {@code k} (the top head and the older versions below it) past it. */
  private void passKey(byte[] k) {
    advanceTop();
    while (size > 0 && Arrays.equals(heap[0].key, k)) {
      advanceTop(); // an older version of the same key
    }
  }

  /** Moves the top head to its next entry and restores the heap, or drops it when it ends. */
  private void advanceTop() {
    if (!heap[0].advance()) {
      heap[0] = heap[--size];
      heap[size] = null;
    }
    if (size > 0) {
      siftDown(0);
    }
  }

  private void siftDown(int i) {
    Head h = heap[i];
    while (true) {
      int child = 2 * i + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && heap[child + 1].before(heap[child])) {
        child++;
      }
      if (!heap[child].before(h)) {
        break;
      }
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = h;
  }

  @Override
  public byte[] key() {
    return key;
  }

  @Override
  public byte[] value() {
    return current == null ? null : current.cursor.value();
  }

  @Override
  public boolean isAntimatter() {
    return current == null || current.cursor.isAntimatter();
  }

  @Override
  public byte[] valueArray() {
    return current == null ? null : current.cursor.valueArray();
  }

  @Override
  public int valueOffset() {
    return current == null ? 0 : current.cursor.valueOffset();
  }

  @Override
  public int valueLength() {
    return current == null ? 0 : current.cursor.valueLength();
  }

  @Override
  public void close() {
    for (EntryCursor c : sources) {
      c.close();
    }
  }
}
