package org.strata.sim.des;

/**
 * The simulated tree at the instant one flush of an ingest phase completes, after the policy has
 * reacted to it (merges it asked for have started, not finished: their inputs still count).
 *
 * @param flush the flush's ordinal, from 1
 * @param seconds virtual time of its completion, from the start of the phase
 * @param components disk components now
 * @param componentSeconds the disk-component count integrated over time from the start up to now
 * @param bytesFlushed bytes written by flushes so far
 * @param bytesMerged bytes written by merges so far (merges under way count what they wrote)
 * @param stalledSeconds how long writes were stopped so far
 */
public record FlushSample(long flush, double seconds, int components, double componentSeconds,
    double bytesFlushed, double bytesMerged, double stalledSeconds) {

  /**
   * The time-averaged disk-component count from the start of the phase up to this flush: {@code
   * componentSeconds / seconds}.
   */
  public double averageComponents() {
    return seconds > 0 ? componentSeconds / seconds : components;
  }

  /** (bytes flushed + bytes merged) / bytes flushed so far: the engine's write amplification. */
  public double writeAmplification() {
    return bytesFlushed > 0 ? (bytesFlushed + bytesMerged) / bytesFlushed : 0;
  }
}
