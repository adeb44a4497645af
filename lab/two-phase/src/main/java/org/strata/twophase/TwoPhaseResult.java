package org.strata.twophase;

import java.util.List;

/**
 * Everything a two-phase run measured.
 *
 * @param config the experiment
 * @param system the system's name ({@code strata}, {@code rocksdb}, {@code hyracks})
 * @param label the system's label in a comparison
 * @param description what ran, in words
 * @param machine the machine, JVM, load average and cache fit
 * @param loadSeconds time to load (and compact) the data
 * @param loadedDiskComponents disk components after loading
 * @param loadedSpaceBytes disk component bytes after loading
 * @param liveDataBytes key and value bytes of the loaded records (the denominator of space
 *     amplification)
 * @param verifiedKeys loaded keys read back and checked (0 if not asked for)
 * @param testing the testing phase (its throughput is the maximum write throughput); null when
 *     only loading
 * @param runs the running phases, in configuration order
 * @param loadGc the JVM's collector pauses and peak heap while loading
 * @param lookups point lookups of loaded keys ({@code strata compare --phases lookup}), or null
 * @param loadProcess what the loading process spent on the load (wall, CPU, peak resident set:
 *     {@link ProcessUse}), or null where the operating system does not say
 * @param fillSeconds time until the last load write returned (flushes and merges may still be
 *     running), or NaN if not measured
 */
public record TwoPhaseResult(TwoPhaseConfig config, String system, String label,
    String description, MachineInfo machine, double loadSeconds, long loadedDiskComponents,
    long loadedSpaceBytes, long liveDataBytes, long verifiedKeys, PhaseResult testing,
    List<PhaseResult> runs, GcPhase loadGc, LookupResult lookups, ProcessUse loadProcess,
    double fillSeconds) {

  /** Records written per second until the last load write returned, or NaN. */
  public double fillRecordsPerSecond() {
    return fillSeconds > 0 ? config.load().records() / fillSeconds : Double.NaN;
  }

  /** Records loaded per second. */
  public double loadRecordsPerSecond() {
    return loadSeconds <= 0 ? 0 : config.load().records() / loadSeconds;
  }

  /**
   * Space amplification at the end of the first running phase (or after loading): disk component
   * bytes over the loaded records' key and value bytes.
   */
  public double spaceAmplification() {
    return runs.isEmpty() ? ratio(loadedSpaceBytes) : spaceAmplificationAt(runs.get(0));
  }

  /**
   * Space amplification at the end of {@code phase}, one of this result's running phases (or a
   * search's phase at 95% of the sustainable rate): its disk component bytes over the loaded
   * records' key and value bytes.
   */
  public double spaceAmplificationAt(PhaseResult phase) {
    return ratio(phase.spaceBytesAtEnd());
  }

  /**
   * Space amplification averaged over the first running phase ({@link
   * PhaseResult#meanSpaceBytes()} over the loaded records' key and value bytes), or NaN without a
   * running phase.
   */
  public double meanSpaceAmplification() {
    return runs.isEmpty() ? Double.NaN : meanSpaceAmplificationAt(runs.get(0));
  }

  /** Space amplification averaged over {@code phase}, one of this result's running phases. */
  public double meanSpaceAmplificationAt(PhaseResult phase) {
    double mean = phase.meanSpaceBytes();
    return liveDataBytes <= 0 || Double.isNaN(mean) ? Double.NaN : mean / liveDataBytes;
  }

  private double ratio(long space) {
    return liveDataBytes <= 0 ? 0 : (double) space / liveDataBytes;
  }
}
