package org.strata.asterix;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the page-write callbacks of one {@link StrataPageWriteCallbackFactory} have seen: pages and
 * bytes written by Hyracks' flushes and merges (and bulk loads), and forces issued.
 */
public final class PageWriteStats {
  private final AtomicLong flushPages = new AtomicLong();
  private final AtomicLong mergePages = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong forces = new AtomicLong();

  void written(boolean flush, long pageBytes) {
    (flush ? flushPages : mergePages).incrementAndGet();
    bytes.addAndGet(pageBytes);
  }

  void forced() {
    forces.incrementAndGet();
  }

  /** Pages written by flushes. */
  public long flushPages() {
    return flushPages.get();
  }

  /** Pages written by merges and bulk loads. */
  public long mergePages() {
    return mergePages.get();
  }

  /** Bytes written (page size times pages, compressed pages counted at their frame size). */
  public long bytes() {
    return bytes.get();
  }

  /** Forces issued every {@code force-bytes} (Hyracks forces again when a component ends). */
  public long forces() {
    return forces.get();
  }
}
