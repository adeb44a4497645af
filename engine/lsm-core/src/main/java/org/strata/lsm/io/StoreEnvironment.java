package org.strata.lsm.io;

/**
 * What a store takes from its surroundings, injectable for tests: the clock (throttle, stall and
 * merge timing), the way files are written (for fault injection) and the hook called at named
 * crash points (for crash tests that stop the process there).
 */
public record StoreEnvironment(Clock clock, FileIo fileIo, CrashPoints crashPoints) {
  /** An environment whose crash points do nothing. */
  public StoreEnvironment(Clock clock, FileIo fileIo) {
    this(clock, fileIo, CrashPoints.none());
  }

  /** The real clock and file system; crash points do nothing. */
  public static StoreEnvironment standard() {
    return new StoreEnvironment(Clock.system(), FileIo.standard());
  }

  /** This environment with {@code points} called at the engine's crash points. */
  public StoreEnvironment withCrashPoints(CrashPoints points) {
    return new StoreEnvironment(clock, fileIo, points);
  }
}
