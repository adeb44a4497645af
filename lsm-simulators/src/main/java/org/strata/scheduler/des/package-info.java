/**
 * The discrete-event simulator of {@code strata des} ({@link
 * org.strata.scheduler.des.DiscreteEventSimulator}): Luo &amp; Carey's two-phase experiments in
 * virtual time, where the real merge policies and merge schedulers drive a simulated tree ({@link
 * org.strata.scheduler.des.DesIndex}, runs with key-space fractions over the SPI's {@code
 * RunList}) whose flushes and merges ({@link org.strata.scheduler.des.DesOperation}) share one
 * simulated disk bandwidth ({@link org.strata.scheduler.des.VirtualIo}). A phase ({@link
 * org.strata.scheduler.des.DesPhase}) decides write stalls with the engine's own {@code
 * WriteAdmission}, feeds writes from a closed loop or an open-loop {@link
 * org.strata.scheduler.des.ArrivalProcess}, and reports throughput, latency percentiles and
 * per-second samples ({@link org.strata.scheduler.des.DesPhaseResult}, {@link
 * org.strata.scheduler.des.SecondSample}). {@link org.strata.scheduler.des.DesSetup} holds the
 * simulated machine. An ingest phase (Mao et al.'s bounded-depth experiment) writes new keys into
 * an empty tree until a number of flushes, showing each flush ({@link
 * org.strata.scheduler.des.FlushSample}) with the time-averaged disk-component count so far.
 */
package org.strata.scheduler.des;
