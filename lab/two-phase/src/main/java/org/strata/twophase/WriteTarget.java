package org.strata.twophase;

/** One write of a phase (an update of a chosen record); blocks while the store stalls. */
@FunctionalInterface
interface WriteTarget {
  void write() throws Exception;
}
