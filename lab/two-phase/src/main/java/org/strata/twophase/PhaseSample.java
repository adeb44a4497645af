package org.strata.twophase;

/**
 * One second of a phase, a row of {@code timeseries.csv}.
 *
 * @param phase the phase's name
 * @param second seconds since the phase started (the end of this one-second interval)
 * @param arrivals writes that arrived in the second (the open loop's generator; in the closed loop
 *     equal to the completions)
 * @param completed writes completed in the second
 * @param queueLength writes waiting at the end of the second
 * @param diskComponents disk components of all trees at the end of the second
 * @param stalled true if writers were stalled at some point in the second
 * @param stallSeconds seconds of the second spent stalled (summed over trees)
 * @param bytesFlushed bytes written by flushes in the second
 * @param bytesMerged bytes written by merges in the second
 * @param writeP99Millis 99th percentile write latency of the writes completed in the second, or
 *     NaN if none
 * @param processingP99Millis the same for processing latency
 * @param stallsStarted write stalls that started in the second (a stall counted by the system,
 *     or stalled time in this second after a second without any)
 * @param pendingMergeBytes merge input bytes scheduled but not yet merged at the end of the
 *     second (the system's estimate; see docs/compare.md)
 * @param arrivalLagMaxMillis the open loop's generator: the most it was late putting a write of
 *     the second on the queue (enqueue minus intended arrival), or NaN if none arrived or the
 *     phase is closed-loop
 * @param spaceBytes bytes of the disk components (all trees) at the end of the second: the space
 *     used, as the phase's end-of-phase figure but at every second
 * @param queries queries (lookups or scans alongside the writes) completed in the second
 * @param design the merge policy's design at the end of the second, {@code T=.. K=.. Z=..}, where
 *     it can change (Strata's {@code adaptive-fluid}); empty otherwise
 */
public record PhaseSample(String phase, int second, long arrivals, long completed,
    long queueLength, long diskComponents, boolean stalled, double stallSeconds,
    long bytesFlushed, long bytesMerged, double writeP99Millis, double processingP99Millis,
    long stallsStarted, long pendingMergeBytes, double arrivalLagMaxMillis, long spaceBytes,
    long queries, String design) {

  public PhaseSample {
    design = design == null ? "" : design;
  }

  /** A second without queries or a changing design. */
  public PhaseSample(String phase, int second, long arrivals, long completed, long queueLength,
      long diskComponents, boolean stalled, double stallSeconds, long bytesFlushed,
      long bytesMerged, double writeP99Millis, double processingP99Millis, long stallsStarted,
      long pendingMergeBytes, double arrivalLagMaxMillis, long spaceBytes) {
    this(phase, second, arrivals, completed, queueLength, diskComponents, stalled, stallSeconds,
        bytesFlushed, bytesMerged, writeP99Millis, processingP99Millis, stallsStarted,
        pendingMergeBytes, arrivalLagMaxMillis, spaceBytes, 0, "");
  }

  static final String CSV_HEADER = "phase,second,arrivals,completed,queue_length,disk_components,"
      + "stalled,stall_seconds,bytes_flushed,bytes_merged,write_p99_ms,processing_p99_ms,"
      + "stalls_started,pending_merge_bytes,arrival_lag_max_ms,space_bytes,queries,design";

  String csv() {
    return String.join(",", phase, Integer.toString(second), Long.toString(arrivals),
        Long.toString(completed), Long.toString(queueLength), Long.toString(diskComponents),
        stalled ? "1" : "0", String.format(java.util.Locale.ROOT, "%.3f", stallSeconds),
        Long.toString(bytesFlushed), Long.toString(bytesMerged), num(writeP99Millis),
        num(processingP99Millis), Long.toString(stallsStarted), Long.toString(pendingMergeBytes),
        num(arrivalLagMaxMillis), Long.toString(spaceBytes), Long.toString(queries), design);
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : String.format(java.util.Locale.ROOT, "%.3f", v);
  }
}
