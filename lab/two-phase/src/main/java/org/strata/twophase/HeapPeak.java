package org.strata.twophase;

/**
 * The most heap a phase used. It is fed the heap used just before each collection (between two
 * collections the used heap only grows, so the value before a collection is the highest since the
 * previous one) and the heap used at the phase's start and end; the largest of these is the
 * phase's peak. Sampling the heap on a timer would miss the peak between samples, and summing
 * each memory pool's own peak overstates it (the young pools peak just before a young collection,
 * the old pool later), so neither is used.
 */
public final class HeapPeak {
  private long peak;

  /** Starts a phase whose heap use is {@code usedNow} bytes. */
  public synchronized void reset(long usedNow) {
    peak = usedNow;
  }

  /** Takes one observation of used heap bytes. */
  public synchronized void observe(long usedBytes) {
    peak = Math.max(peak, usedBytes);
  }

  /** The largest used heap observed since the last {@link #reset}. */
  public synchronized long peak() {
    return peak;
  }
}
