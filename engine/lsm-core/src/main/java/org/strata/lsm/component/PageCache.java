package org.strata.lsm.component;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded cache of decoded, checksum-verified pages shared by every index of a store, keyed by
 * (file id, page offset). It is split into segments, each an LRU list under its own lock, so
 * concurrent readers rarely contend. The bound counts page bytes plus a small per-page overhead.
 * Each segment also knows which of its pages belong to which file, so dropping a deleted file's
 * pages costs those pages, not a walk of the whole cache under the segment's lock.
 */
public final class PageCache {
  private static final int SEGMENTS = 16;

  private final Segment[] segments = new Segment[SEGMENTS];
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();

  /** A cache of at most {@code capacityBytes}; 0 disables caching. */
  public PageCache(long capacityBytes) {
    for (int i = 0; i < SEGMENTS; i++) {
      segments[i] = new Segment(capacityBytes / SEGMENTS);
    }
  }

  private record Key(long fileId, long offset) {}

  private Segment segment(long fileId, long offset) {
    long h = fileId * 0x9E3779B97F4A7C15L + offset;
    h ^= h >>> 29;
    return segments[(int) (h & (SEGMENTS - 1))];
  }

  /** The cached page, or null. */
  public Page get(long fileId, long offset) {
    Page p = segment(fileId, offset).get(new Key(fileId, offset));
    if (p == null) {
      misses.incrementAndGet();
    } else {
      hits.incrementAndGet();
    }
    return p;
  }

  /** Adds a page, evicting least recently used pages of its segment as needed. */
  public void put(long fileId, long offset, Page page) {
    segment(fileId, offset).put(new Key(fileId, offset), page);
  }

  /** Drops every page of a file (called when the file is deleted). */
  public void invalidate(long fileId) {
    for (Segment s : segments) {
      s.removeFile(fileId);
    }
  }

  public long hits() {
    return hits.get();
  }

  public long misses() {
    return misses.get();
  }

  /** Pages currently held. */
  int pages() {
    int n = 0;
    for (Segment seg : segments) {
      n += seg.pages();
    }
    return n;
  }

  /** Per-segment file entries currently kept (a file counts once per segment it has pages in). */
  int fileEntries() {
    int n = 0;
    for (Segment seg : segments) {
      n += seg.files();
    }
    return n;
  }

  /** Bytes currently held. */
  public long sizeBytes() {
    long s = 0;
    for (Segment seg : segments) {
      s += seg.size();
    }
    return s;
  }

  private static final class Segment {
    private final long capacity;
    private long size;
    private final LinkedHashMap<Key, Page> map = new LinkedHashMap<>(64, 0.75f, true);
    /** The offsets of the pages {@link #map} holds, by file. */
    private final Map<Long, Set<Long>> offsetsByFile = new HashMap<>();

    Segment(long capacity) {
      this.capacity = capacity;
    }

    synchronized Page get(Key k) {
      return map.get(k);
    }

    synchronized void put(Key k, Page p) {
      if (p.weight() > capacity) {
        return;
      }
      Page old = map.put(k, p);
      if (old != null) {
        size -= old.weight();
      } else {
        offsetsByFile.computeIfAbsent(k.fileId(), f -> new HashSet<>()).add(k.offset());
      }
      size += p.weight();
      var it = map.entrySet().iterator();
      while (size > capacity && it.hasNext()) {
        Map.Entry<Key, Page> e = it.next();
        size -= e.getValue().weight();
        it.remove();
        forget(e.getKey());
      }
    }

    private void forget(Key k) {
      Set<Long> offsets = offsetsByFile.get(k.fileId());
      if (offsets != null && offsets.remove(k.offset()) && offsets.isEmpty()) {
        offsetsByFile.remove(k.fileId());
      }
    }

    synchronized void removeFile(long fileId) {
      Set<Long> offsets = offsetsByFile.remove(fileId);
      if (offsets == null) {
        return;
      }
      for (long offset : offsets) {
        Page p = map.remove(new Key(fileId, offset));
        if (p != null) {
          size -= p.weight();
        }
      }
    }

    /** Pages held (for tests). */
    synchronized int pages() {
      return map.size();
    }

    /** Files with pages held (for tests). */
    synchronized int files() {
      return offsetsByFile.size();
    }

    synchronized long size() {
      return size;
    }
  }
}
