package org.strata.sim.des;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.strata.lsm.config.FlowControl;
import org.strata.lsm.engine.WriteAdmission;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.OperationRunner;

/**
 * One phase of the discrete-event simulation: a freshly loaded tree, one writer, and the
 * flush and merge machinery of the engine replayed in virtual time.
 *
 * <p>The writer takes writes in arrival order (a closed loop takes the next one as soon as the last
 * completes). A write waits while writes are stopped (every memory component full, or the
 * component constraint violated), is paced under {@code limit} and {@code graded} admission, and
 * then takes {@code 1 / memoryWriteRate} seconds. A full memory component is flushed by the single
 * flush thread (strict priority on the bandwidth); after every flush and every merge the policy is
 * asked once for merges and the constraint is re-evaluated, in the engine's order. Whether a write
 * is paced or waits, and why, is the engine's own {@link WriteAdmission} decision; the simulator
 * only carries it out in virtual time.
 *
 * <p>An ingest phase (Mao et al.'s experiment) starts from an empty tree instead of a loaded one;
 * every write is a new key, so flushed runs are disjoint and a merge writes the sum of its inputs;
 * it ends when its last flush completes, and shows each flush to a {@link FlushObserver} with the
 * time-averaged disk-component count so far ({@link ComponentTime}).
 */
final class DesPhase {
  private final DesSetup setup;
  private final double duration;
  private final ArrivalProcess arrivals;
  private final WriteObserver observer;
  private final VirtualIo io;
  private final DesIndex index;
  private final MergeScheduler scheduler;
  private final String schedulerName;
  private final PhaseMetrics metrics;
  private final long memoryEntries;
  private final double flushFraction;
  private long activeEntries;
  private int immutables;
  private final WriteAdmission admission;
  /** The constraint that stops writes; empty for {@code none} (no flow control). */
  private final Optional<FlowControl.Constraint> constraint;
  private boolean memoryFull;
  private boolean constraintViolated;
  /** Flushes an ingest phase runs to; 0 for the testing and running phases. */
  private final long ingestFlushes;
  private final FlushObserver flushObserver;
  private long flushesDone;
  /** When the last flush of an ingest phase completed; negative until then. */
  private double ended = -1;
  private final ComponentTime componentTime;

  /**
   * @param policyName the policy's name, for errors
   * @param arrivals the open-loop arrival process, or null for a closed loop
   * @param observer sees every write, or null
   */
  DesPhase(DesSetup setup, String policyName, MergePolicy policy, String schedulerName,
      Function<OperationRunner, MergeScheduler> schedulers, double duration,
      ArrivalProcess arrivals, WriteObserver observer) {
    this(setup, policyName, policy, schedulerName, schedulers, duration, arrivals, observer, 0,
        null);
  }

  /**
   * An ingest phase: an empty tree, new keys from one closed-loop writer, until {@code flushes}
   * flushes have completed.
   *
   * @param flushObserver sees every flush, or null
   */
  DesPhase(DesSetup setup, String policyName, MergePolicy policy, String schedulerName,
      Function<OperationRunner, MergeScheduler> schedulers, long flushes,
      FlushObserver flushObserver) {
    this(setup, policyName, policy, schedulerName, schedulers, Double.POSITIVE_INFINITY, null,
        null, flushes, flushObserver);
  }

  private DesPhase(DesSetup setup, String policyName, MergePolicy policy, String schedulerName,
      Function<OperationRunner, MergeScheduler> schedulers, double duration,
      ArrivalProcess arrivals, WriteObserver observer, long ingestFlushes,
      FlushObserver flushObserver) {
    if (ingestFlushes > 0 ? duration != Double.POSITIVE_INFINITY
        : !(duration > 0) || Double.isInfinite(duration)) {
      throw new IllegalArgumentException("duration must be a positive number of seconds");
    }
    this.ingestFlushes = ingestFlushes;
    this.flushObserver = flushObserver;
    this.setup = setup;
    this.duration = duration;
    this.arrivals = arrivals;
    this.observer = observer;
    this.schedulerName = schedulerName;
    this.admission = new WriteAdmission(FlowControl.Admission.valueOf(
        setup.admission().toUpperCase(Locale.ROOT)), setup.slowdownAt());
    this.constraint = setup.constraint().equals("none") ? Optional.empty()
        : Optional.of(FlowControl.Constraint.valueOf(setup.constraint().toUpperCase(Locale.ROOT)));
    this.io = new VirtualIo(setup.bandwidth());
    this.index = new DesIndex(setup, policyName, policy, io);
    this.metrics = new PhaseMetrics(duration);
    this.memoryEntries = Math.max(1, setup.memoryComponentEntries());
    if (ingestFlushes > 0) {
      if (ingestFlushes > setup.entries() / memoryEntries) {
        throw new IllegalArgumentException(String.format(Locale.ROOT,
            "an ingest of %d flushes of %d entries writes %,.0f new keys, more than the %d"
                + " entries of the setup", ingestFlushes, memoryEntries,
            (double) ingestFlushes * memoryEntries, setup.entries()));
      }
      this.flushFraction = (double) memoryEntries / setup.entries(); // disjoint new keys
    } else {
      this.flushFraction = index.updateFraction(memoryEntries);
      index.load();
    }
    this.componentTime = new ComponentTime(0, index.componentCount());
    this.scheduler = schedulers.apply(io);
    index.scheduler(scheduler);
    io.meter(metrics);
  }

  DesPhaseResult run() {
    try {
      return simulate();
    } finally {
      scheduler.close();
    }
  }

  private DesPhaseResult simulate() {
    boolean open = arrivals != null;
    afterComponentChange(); // the loaded shape may already call for merges
    double writerFree = 0;
    double lastAdmit = Double.NEGATIVE_INFINITY;
    double paceGap = 1 / setup.writeRate();
    double writeCost = 1 / setup.memoryWriteRate();
    long k = 0;
    outer:
    while (true) {
      double arrival = open ? arrivals.next() : writerFree;
      if (arrival >= duration) {
        break;
      }
      if (open) {
        metrics.arrival(arrival);
      }
      double dequeued = Math.max(arrival, writerFree);
      if (dequeued >= duration) {
        continue; // arrived, still queued when the phase ends
      }
      double start = dequeued;
      if (admission.admission() != FlowControl.Admission.ASAP
          && decide(1).action() == WriteAdmission.Action.PACE) {
        start = Math.max(start, lastAdmit + paceGap);
      }
      advanceTo(start);
      if (ended()) {
        break;
      }
      for (WriteAdmission.Decision d = decide(0); d.stopped(); d = decide(0)) {
        if (!io.busy()) {
          throw new IllegalStateException("writes are stopped (" + (memoryFull
              ? "memory components full" : "component constraint") + ") but no flush or merge"
              + " is running at " + io.now() + " s: the policy or scheduler never runs the"
              + " merge it needs");
        }
        step();
        if (ended()) {
          break outer;
        }
        start = Math.max(start, io.now());
        if (start >= duration) {
          break outer;
        }
      }
      lastAdmit = start;
      double done = start + writeCost;
      metrics.completion(arrival, dequeued, done, open);
      if (observer != null) {
        observer.written(k, arrival, dequeued, done);
      }
      k++;
      writerFree = done;
      if (++activeEntries >= memoryEntries) {
        advanceTo(done);
        if (ended()) {
          break;
        }
        rotate();
      }
    }
    if (ended()) {
      return metrics.finish("ingest", schedulerName, 0, k, index.componentCount(),
          index.rejectedMerges(), ended);
    }
    advanceTo(duration);
    return metrics.finish(open ? "running" : "testing", schedulerName,
        open ? arrivals.meanRate() : 0, k, index.componentCount(), index.rejectedMerges());
  }

  /** Whether an ingest phase has completed its last flush. */
  private boolean ended() {
    return ended >= 0;
  }

  /**
   * The engine's admission decision for the simulated tree: the memory components are full when
   * the flush has not freed one ({@code memoryFull}; the simulator seals on its own), and the
   * simulator always waits on a violated constraint (a wait with nothing running is reported as
   * an error above).
   *
   * @param unpaced 1 to ask whether the next write is paced, 0 once it has been
   */
  private WriteAdmission.Decision decide(long unpaced) {
    boolean pacing = unpaced > 0;
    return admission.decide(new WriteAdmission.State(null, unpaced,
        pacing ? index.componentCount() : 0,
        pacing ? index.policy().componentConstraint() : Integer.MAX_VALUE,
        WriteAdmission.Memory.TREE, memoryFull, false, null, constraintViolated, true));
  }

  /** Processes every flush and merge completion up to {@code t}, then moves time to it. */
  private void advanceTo(double t) {
    while (!ended() && io.nextCompletionTime() <= t) {
      step();
    }
    if (ended()) {
      return; // an ingest phase stops at its last flush
    }
    metrics.sampleUpTo(t, index.componentCount());
    io.advanceTo(t);
  }

  /** Completes the next flush or merge, sampling the seconds before it. */
  private void step() {
    metrics.sampleUpTo(io.nextCompletionTime(), index.componentCount());
    handle(io.completeNext());
  }

  /** The active memory component is full: it becomes immutable and is flushed, or writes stop. */
  private void rotate() {
    if (immutables < setup.memoryComponents() - 1) {
      immutables++;
      activeEntries = 0;
      if (!io.flushing()) {
        startFlush();
      }
    } else {
      memoryFull = true;
      updateStall();
    }
  }

  private void startFlush() {
    io.startFlush(new DesOperation(IoOperation.Kind.FLUSH, DesIndex.NAME,
        index.bytes(flushFraction),
        (long) Math.ceil((double) memoryEntries * setup.entrySize() / setup.pageSize()),
        io.now()));
  }

  private void handle(DesOperation op) {
    if (op.kind() == IoOperation.Kind.FLUSH) {
      immutables--;
      index.addFlushed(flushFraction, ingestFlushes > 0);
      afterComponentChange();
      if (ingestFlushes > 0) {
        flushed();
      }
      if (memoryFull) {
        memoryFull = false;
        immutables++;
        activeEntries = 0;
      }
      if (immutables > 0 && !io.flushing()) {
        startFlush();
      }
    } else {
      int width = index.width(op);
      int level = index.outputLevel(op);
      index.mergeCompleted(op);
      metrics.merge(new MergeLogEntry(op.createdAt(), op.startedAt(), op.completedAt(), width,
          level, op.workBytes()));
      afterComponentChange();
      scheduler.completed(op);
    }
    updateStall();
  }

  /** An ingest phase counts the flush, shows it, and ends at its last one. */
  private void flushed() {
    flushesDone++;
    double now = io.now();
    if (flushObserver != null) {
      flushObserver.flushed(new FlushSample(flushesDone, now, index.componentCount(),
          componentTime.integral(now), metrics.bytesFlushed(), metrics.bytesMerged(),
          metrics.stalledSeconds(now)));
    }
    if (flushesDone == ingestFlushes) {
      ended = now;
    }
  }

  /** The engine's order: the policy reacts once, then the constraint is re-evaluated. */
  private void afterComponentChange() {
    index.diskComponentAdded();
    componentTime.set(io.now(), index.componentCount());
    constraintViolated = constraint.isPresent()
        && WriteAdmission.constraintViolated(constraint.get(), index.policy(), index);
    metrics.components(index.componentCount(), index.flushedRunCount());
    updateStall();
  }

  private void updateStall() {
    WriteAdmission.Decision d = decide(0);
    metrics.stall(io.now(), d.stopped() ? d.reason().stallCause() : null);
  }
}
