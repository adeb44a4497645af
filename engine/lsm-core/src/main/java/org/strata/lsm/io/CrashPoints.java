package org.strata.lsm.io;

/**
 * What the engine calls when it reaches a {@link CrashPoint}. The default does nothing; a crash
 * test's writer process substitutes one that announces the point and waits there to be killed.
 * Called on the thread doing the work (flush, merge, writer), possibly holding engine locks, so
 * an implementation must not call back into the store.
 */
@FunctionalInterface
public interface CrashPoints {
  /** The engine reached {@code point}. */
  void reached(CrashPoint point);

  /** Does nothing: the engine's default. */
  static CrashPoints none() {
    return point -> { };
  }
}
