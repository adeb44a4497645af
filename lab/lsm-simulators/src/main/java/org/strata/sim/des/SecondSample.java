package org.strata.sim.des;

/**
 * One second of a simulated phase (the per-second series of {@code strata des --series}).
 *
 * @param second the second, from 0
 * @param arrivals writes that arrived during it (the completed writes in a closed loop)
 * @param completed writes completed during it
 * @param queue writes arrived and not completed at its end
 * @param diskComponents disk components at its end
 * @param stalledSeconds how long writes were stopped during it (0..1)
 * @param bytesFlushed bytes written by flushes during it
 * @param bytesMerged bytes written by merges during it
 */
public record SecondSample(int second, long arrivals, long completed, long queue,
    int diskComponents, double stalledSeconds, double bytesFlushed, double bytesMerged) {}
