package org.strata.sim.des;

/** Sees every flush of an ingest phase ({@link DiscreteEventSimulator#ingest}) as it completes. */
@FunctionalInterface
public interface FlushObserver {
  void flushed(FlushSample sample);
}
