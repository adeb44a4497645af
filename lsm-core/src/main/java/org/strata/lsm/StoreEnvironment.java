package org.strata.lsm;

import org.strata.lsm.io.Clock;
import org.strata.lsm.io.FileIo;

/**
 * What a store takes from its surroundings, injectable for tests: the clock (throttle, stall and
 * merge timing) and the way files are written (for fault injection).
 */
public record StoreEnvironment(Clock clock, FileIo fileIo) {
  /** The real clock and file system. */
  public static StoreEnvironment standard() {
    return new StoreEnvironment(Clock.system(), FileIo.standard());
  }
}
