package org.strata.crash;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.io.CrashPoints;

/**
 * The child's crash points: the {@code occurrence}-th time the engine reaches {@code point}, prints
 * {@code crashpoint <name>} and stops that thread there for good, so the parent's SIGKILL lands
 * exactly at the point. Other points, and other occurrences, pass.
 */
final class PausingCrashPoints implements CrashPoints {
  private final CrashPoint point;
  private final int occurrence;
  private final PrintStream out;
  private final AtomicInteger seen = new AtomicInteger();
  private final CountDownLatch never = new CountDownLatch(1);

  /**
   * @param point where to stop, or null to stop nowhere
   * @param occurrence which time the point is reached to stop at, from 1
   * @param out the channel to the parent, shared with the acknowledgements
   */
  PausingCrashPoints(CrashPoint point, int occurrence, PrintStream out) {
    this.point = point;
    this.occurrence = occurrence;
    this.out = out;
  }

  @Override
  public void reached(CrashPoint p) {
    if (p != point || seen.incrementAndGet() != occurrence) {
      return;
    }
    synchronized (out) {
      out.println("crashpoint " + p.configName());
      out.flush();
    }
    while (true) { // until the parent kills the process
      try {
        never.await();
      } catch (InterruptedException e) {
        // keep waiting: the point must hold until the kill
      }
    }
  }
}
