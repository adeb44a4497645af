package org.strata.ycsb.twophase;

/**
 * A child JVM's main for {@link GcPauseRecorderTest}: one phase around a G1 concurrent cycle
 * (run with {@code -XX:+ExplicitGCInvokesConcurrent}, so {@code System.gc()} starts one), printing
 * the phase's pause figures as {@code collectors=...;pauses=N}.
 */
public final class ConcurrentCycleMain {
  private ConcurrentCycleMain() {}

  public static void main(String[] args) throws Exception {
    try (GcPauseRecorder r = GcPauseRecorder.platform()) {
      r.startPhase();
      System.gc();
      GcPhase p = r.endPhase();
      System.out.println("collectors=" + String.join(",", p.pausingCollectors()) + ";pauses="
          + p.pauses());
    }
  }
}
