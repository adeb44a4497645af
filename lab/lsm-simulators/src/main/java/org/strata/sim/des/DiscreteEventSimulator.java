package org.strata.sim.des;

import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeSchedulerFactory;
import org.strata.lsm.spi.OperationRunner;

/**
 * Luo & Carey's experiments in virtual time ({@code strata des}): the real merge policy and merge
 * scheduler classes drive a simulated tree whose flushes and merges share one bandwidth B, with a
 * writer in a closed loop (the testing phase) or fed by an open-loop arrival process (the running
 * phase). Every phase starts from a freshly loaded tree and is deterministic for a given setup and
 * arrival process; the ingest phase (Mao et al.'s experiment) starts from an empty one instead and
 * runs to a number of flushes. Merges are full merges of whole runs; policies that need
 * partitioned runs, key ranges or key sketches (partitioned leveling, TRIAD-DISK) are not
 * modelled and are refused when the simulator is created.
 */
public final class DiscreteEventSimulator {
  private final DesSetup setup;
  private final String policyName;
  private final Supplier<MergePolicy> policies;
  private final String schedulerName;
  private final Function<OperationRunner, MergeScheduler> schedulers;

  /**
   * @param policyName the policy's name, for errors
   * @param policies a fresh policy instance per phase
   * @param schedulerName the scheduler's name, for reports
   * @param schedulers creates a scheduler on the simulator's virtual-time runner
   */
  public DiscreteEventSimulator(DesSetup setup, String policyName,
      Supplier<MergePolicy> policies, String schedulerName,
      Function<OperationRunner, MergeScheduler> schedulers) {
    this.setup = setup;
    this.policyName = policyName;
    this.policies = policies;
    this.schedulerName = schedulerName;
    this.schedulers = schedulers;
  }

  /**
   * A simulator for named plug-ins found on the class path. Unknown names and bad parameters fail
   * as they do in a store's configuration, and so does a policy that needs what the simulator does
   * not model (partitioned runs, key ranges, key sketches).
   *
   * @throws org.strata.lsm.InvalidConfigurationException for an unknown name, a bad parameter or
   *     a policy the simulator cannot run
   * @throws UnsupportedOperationException if the scheduler cannot run in virtual time
   */
  public static DiscreteEventSimulator of(DesSetup setup, NamedPlugin policy,
      NamedPlugin scheduler) {
    return of(setup, policy, UnaryOperator.identity(), scheduler);
  }

  /**
   * As {@link #of(DesSetup, NamedPlugin, NamedPlugin)}, each phase's policy instance passed
   * through {@code wrap} first: a decorator that changes what the policy answers the simulated
   * engine (for instance {@link MergePolicy#isMergeLagging}, the flow control of another system)
   * while its merge decisions stay the named policy's.
   */
  public static DiscreteEventSimulator of(DesSetup setup, NamedPlugin policy,
      UnaryOperator<MergePolicy> wrap, NamedPlugin scheduler) {
    Plugins.mergePolicy(policy, DesIndex.HOST); // fail now, not in the middle of a phase
    MergeSchedulerFactory factory = Plugins.schedulerFactory(scheduler);
    factory.create(scheduler.parameters(), new VirtualIo(1)).close();
    return new DiscreteEventSimulator(setup, policy.name(),
        () -> wrap.apply(Plugins.mergePolicy(policy, DesIndex.HOST)), scheduler.name(),
        runner -> factory.create(scheduler.parameters(), runner));
  }

  public DesSetup setup() {
    return setup;
  }

  /** The testing phase: one writer in a closed loop for {@code duration} seconds. */
  public DesPhaseResult testing(double duration) {
    return new DesPhase(setup, policyName, policies.get(), schedulerName, schedulers, duration,
        null, null).run();
  }

  /**
   * An ingest phase (Mao et al.'s experiment): an empty tree, one writer in a closed loop writing
   * new keys (so runs are disjoint and a merge writes the sum of its inputs), until {@code
   * flushes} flushes have completed. The result's duration is the completion time of the last
   * flush.
   *
   * @param observer sees every flush as it completes, with the time-averaged component count so
   *     far; may be null
   * @throws IllegalArgumentException if {@code flushes} is below 1, or its flushes would write
   *     more new keys than the setup's entries
   */
  public DesPhaseResult ingest(long flushes, FlushObserver observer) {
    if (flushes < 1) {
      throw new IllegalArgumentException("an ingest needs at least 1 flush, got " + flushes);
    }
    return new DesPhase(setup, policyName, policies.get(), schedulerName, schedulers, flushes,
        observer).run();
  }

  /** The running phase: writes arrive by {@code arrivals} for {@code duration} seconds. */
  public DesPhaseResult running(double duration, ArrivalProcess arrivals) {
    return running(duration, arrivals, null);
  }

  /** The running phase, showing every write to {@code observer}. */
  public DesPhaseResult running(double duration, ArrivalProcess arrivals, WriteObserver observer) {
    if (arrivals == null) {
      throw new IllegalArgumentException("the running phase needs an arrival process");
    }
    return new DesPhase(setup, policyName, policies.get(), schedulerName, schedulers, duration,
        arrivals, observer).run();
  }
}
