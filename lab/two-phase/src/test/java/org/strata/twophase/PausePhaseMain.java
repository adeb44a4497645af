package org.strata.twophase;

import java.util.Locale;

/**
 * A child JVM's main for {@link GcPauseRecorderTest}: one phase of the platform recorder around
 * {@code System.gc()} (with G1 and {@code -XX:+ExplicitGCInvokesConcurrent} a concurrent cycle,
 * with ZGC a whole cycle), printing the phase's figures as {@code kinds=...;pauses=N;maxMillis=X}.
 */
public final class PausePhaseMain {
  private PausePhaseMain() {}

  public static void main(String[] args) throws Exception {
    try (GcPauseRecorder r = GcPauseRecorder.platform()) {
      r.startPhase();
      System.gc();
      GcPhase p = r.endPhase();
      System.out.println(String.format(Locale.ROOT, "kinds=%s;pauses=%d;maxMillis=%.6f",
          String.join(",", p.pauseKinds()), p.pauses(), p.maxMillis()));
    }
  }
}
