/**
 * The discrete-event simulator of {@code strata des} ({@link
 * org.strata.sim.des.DiscreteEventSimulator}): Luo &amp; Carey's two-phase experiments in
 * virtual time, where the real merge policies and merge schedulers drive a simulated tree ({@link
 * org.strata.sim.des.DesIndex}, runs with key-space fractions over the SPI's {@code
 * RunList}) whose flushes and merges ({@link org.strata.sim.des.DesOperation}) share one
 * simulated disk bandwidth ({@link org.strata.sim.des.VirtualIo}). A phase ({@link
 * org.strata.sim.des.DesPhase}) decides write stalls with the engine's own {@code
 * WriteAdmission}, feeds writes from a closed loop or an open-loop {@link
 * org.strata.sim.des.ArrivalProcess}, and reports throughput, latency percentiles and
 * per-second samples ({@link org.strata.sim.des.DesPhaseResult}, {@link
 * org.strata.sim.des.SecondSample}). {@link org.strata.sim.des.DesSetup} holds the
 * simulated machine. An ingest phase (Mao et al.'s bounded-depth experiment) writes new keys into
 * an empty tree until a number of flushes, showing each flush ({@link
 * org.strata.sim.des.FlushSample}) with the time-averaged disk-component count so far.
 */
package org.strata.sim.des;
