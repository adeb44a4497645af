package org.strata.lsm.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.StrataException;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.config.FlowControl;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.io.RepeatedFailures;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeWindow;
import org.strata.lsm.spi.PolicyDriver;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;

/**
 * The merges of one index: asks the merge policy through the SPI's {@link PolicyDriver} after
 * every new disk component, turns what it schedules into {@link MergeOperation}s handed to the
 * {@link MergeScheduler}, installs finished merges through {@link VersionSet#logAndApply}, and
 * re-evaluates the component constraint that stops writes ({@link
 * org.strata.lsm.config.FlowControl.Constraint}). It hands the policy the engine's {@link
 * MergeContext} ({@link EngineMergeContext}: the run list is {@link VersionSet#runList()}) and is
 * each merge's {@link MergeOperation.Host}.
 *
 * <p>Locks. {@code policyLock} (declared here) serializes calls into the policy; lock order:
 * {@code policyLock} before the tree lock. The live merges and the constraint flag are guarded by
 * the tree lock; waiters are woken through the tree's condition.
 */
final class MergeCoordinator implements MergeOperation.Host {
  private final String name;
  private final Logger log;
  private final ReentrantLock lock;
  private final Condition changed;
  private final VersionSet versions;
  private final ComponentFiles files;
  private final EngineStats stats;
  private final MergePolicy policy;
  private final PolicyDriver driver;
  private final MergeScheduler scheduler;
  private final FlowControl.Constraint constraint;
  private final Clock clock;
  private final OperationCounter operations;
  private final RepeatedFailures failures;
  // What the policy sees and calls (the engine's MergeContext).
  private final EngineMergeContext context;
  /** Where the policy's requests go; used under {@code policyLock}. */
  private final EngineHost host = new EngineHost();
  /** Serializes calls into the policy. Taken before the tree lock. */
  private final Object policyLock = new Object();

  // Guarded by lock.
  @GuardedBy("lock")
  private final Set<MergeOperation> live = new HashSet<>();
  @GuardedBy("lock")
  private boolean constraintViolated;
  /**
   * {@code constraintViolated} while a merge is live (what stops writes), written under the tree
   * lock whenever either changes and read without it on {@link WriteGate}'s lock-free path.
   */
  private volatile boolean stopsWrites;
  @GuardedBy("lock")
  private boolean closing;

  /**
   * @param policyName the policy's configured name, for errors
   * @param constraint which constraint stops writes ({@code flow-control.constraint})
   * @param operations the index's operation counts, which the policy may read
   */
  MergeCoordinator(String name, Logger log, ReentrantLock lock, Condition changed,
      VersionSet versions, ComponentFiles files, EngineStats stats, String policyName,
      MergePolicy policy, MergeScheduler scheduler, FlowControl.Constraint constraint,
      Clock clock, OperationCounter operations) {
    this.name = name;
    this.log = log;
    this.lock = lock;
    this.changed = changed;
    this.versions = versions;
    this.files = files;
    this.stats = stats;
    this.policy = policy;
    this.driver = new PolicyDriver(policyName, policy);
    this.scheduler = scheduler;
    this.constraint = constraint;
    this.clock = clock;
    this.operations = operations;
    this.failures = new RepeatedFailures(log, "merge in " + name);
    this.context = new EngineMergeContext(name, log, lock, versions, stats, operations);
  }

  /** The merge policy. */
  MergePolicy policy() {
    return policy;
  }

  /** The policy's view of the runs. */
  List<RunInfo> runs() {
    return context.runs();
  }

  /** Whether the component constraint is violated. Caller holds the tree lock. */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  boolean constraintViolated() {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    return constraintViolated;
  }

  /**
   * Whether the component constraint stops writes (violated while a merge is pending); reads no
   * lock, so it may be a moment old.
   */
  boolean stopsWrites() {
    return stopsWrites;
  }

  /** Updates {@link #stopsWrites()}. Caller holds the tree lock. */
  @GuardedBy("lock")
  private void stopsWritesChanged() {
    stopsWrites = constraintViolated && !live.isEmpty();
  }

  /** Whether a merge is scheduled or running. Caller holds the tree lock. */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  boolean mergePending() {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    return !live.isEmpty();
  }

  /** Input bytes the scheduled merges have not read yet. Caller holds the tree lock. */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  long pendingMergeBytes() {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    long b = 0;
    for (MergeOperation op : live) {
      b += op.remainingInputBytes();
    }
    return b;
  }

  /**
   * Lets the policy react to a new component (or, with {@code fullMerge}, asks for a full merge)
   * and re-evaluates the component constraint.
   */
  void afterComponentChange(boolean fullMerge) {
    boolean lagging;
    synchronized (policyLock) {
      lock.lock();
      try {
        if (closing) {
          return;
        }
      } finally {
        lock.unlock();
      }
      driver.diskComponentAdded(context, fullMerge, host);
      lagging = WriteAdmission.constraintViolated(constraint, policy, context);
    }
    lock.lock();
    try {
      constraintViolated = lagging;
      stopsWritesChanged();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The policy's cut keys for the next flush ({@link MergePolicy#flushCutKeys}); none if the
   * index is closing or the policy fails (logged), so a flush never fails for it.
   */
  List<byte[]> flushCutKeys() {
    synchronized (policyLock) {
      try {
        List<byte[]> keys = policy.flushCutKeys(context);
        for (int i = 1; i < keys.size(); i++) {
          if (java.util.Arrays.compareUnsigned(keys.get(i - 1), keys.get(i)) >= 0) {
            log.error("the merge policy of {} gave flush cut keys out of order; the flush"
                + " writes one file", name);
            return List.of();
          }
        }
        return keys;
      } catch (RuntimeException e) {
        log.error("the merge policy of {} failed to give flush cut keys", name, e);
        return List.of();
      }
    }
  }

  /** {@link #afterComponentChange} for background threads: a policy failure is logged. */
  void policyAfter(String event) {
    try {
      afterComponentChange(false);
    } catch (RuntimeException e) {
      log.error("the merge policy of {} failed after a {}", name, event, e);
    }
  }

  /** Waits until no merge is scheduled or running (or the index closes). */
  void awaitMerges() {
    lock.lock();
    try {
      while (!live.isEmpty() && !closing) {
        changed.await();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StrataException("interrupted while waiting for merges", e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Schedules no more merges, cancels the running ones, stops the scheduler and drops the merges
   * it had not started (their inputs stay).
   */
  void close() {
    List<MergeOperation> running;
    lock.lock();
    try {
      closing = true;
      running = new ArrayList<>(live);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    running.forEach(MergeOperation::cancel);
    scheduler.close();
    List<MergeOperation> leftover;
    lock.lock();
    try {
      leftover = new ArrayList<>(live);
    } finally {
      lock.unlock();
    }
    leftover.forEach(MergeOperation::abandonUnstarted);
  }

  // ---- MergeOperation.Host -------------------------------------------------------------------

  @Override
  public String name() {
    return name;
  }

  @Override
  public long newFileNumber() {
    return versions.newFileNumber();
  }

  @Override
  public RepeatedFailures failures() {
    return failures;
  }

  @Override
  public void completed(MergeOperation op, List<DiskComponent> outputs, MergeRecord record) {
    boolean written = false;
    try {
      versions.crashPoints().reached(CrashPoint.MERGE_BEFORE_MANIFEST);
      versions.logAndApply(VersionEdit.merge(op.request(), outputs, record));
      written = true;
      versions.crashPoints().reached(CrashPoint.MERGE_BEFORE_DELETE);
    } catch (IOException e) {
      // The merge is installed in memory; the inputs stay on disk (and listed in the manifest on
      // disk) until a later manifest is written, so a crash now loses nothing.
      log.error("cannot write the manifest of {} after a merge; its inputs are kept until the"
          + " next manifest write", name, e);
    } finally {
      if (written) {
        for (Run r : op.inputs()) {
          r.components().forEach(DiskComponent::markObsolete);
        }
      }
    }
  }

  @Override
  public void abandoned(MergeOperation op, MergeRecord record) {
    lock.lock();
    try {
      versions.runList(versions.runList().clearMerging(op.request()));
      stats.recordMerge(record);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void finished(MergeOperation op, boolean success) {
    if (success) {
      policyAfter("merge");
    }
    lock.lock();
    try {
      live.remove(op);
      if (!success && live.isEmpty()) {
        constraintViolated = false;
      }
      stopsWritesChanged();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    scheduler.completed(op);
  }

  // ---- scheduling ----------------------------------------------------------------------------

  /**
   * Schedules a merge if the run list accepts it now: its inputs are marked merging and the
   * operation goes to the scheduler.
   */
  boolean schedule(MergeRequest request) {
    MergeOperation op;
    lock.lock();
    try {
      RunList runList = versions.runList();
      if (closing || runList.check(request).isPresent()) {
        return false;
      }
      MergeWindow window = runList.window(request);
      List<Run> inputs = versions.runsOf(window.runs());
      // Anti-matter may go only when the merge sees the oldest data of its key range.
      op = new MergeOperation(this, files, request, inputs, window.includesOldest(), clock);
      versions.runList(runList.markMerging(request));
      live.add(op);
      stopsWritesChanged();
    } finally {
      lock.unlock();
    }
    try {
      scheduler.schedule(op);
    } catch (RuntimeException e) {
      // A scheduler refuses work once it is closed; the merge is dropped and its inputs kept.
      op.abandonUnstarted();
      if (isClosing()) {
        return false;
      }
      throw e;
    }
    return true;
  }

  /**
   * Installs a metadata-only move at once (the manifest is written before it returns): refused if
   * a component is gone or merging, or the move would overlap a file of a run it joins.
   */
  boolean move(MergeRequest.Move request) {
    lock.lock();
    try {
      RunList runList = versions.runList();
      if (closing || runList.check(request).isPresent()) {
        return false;
      }
      try {
        long[] probeId = {Long.MIN_VALUE + 1}; // a dry run: ids that no run has
        runList.apply(request, List.of(), () -> probeId[0]++);
      } catch (IllegalStateException | IllegalArgumentException e) {
        return false;
      }
    } finally {
      lock.unlock();
    }
    try {
      versions.logAndApply(VersionEdit.move(request));
    } catch (IOException e) {
      // Installed in memory; the manifest on disk still lists the files in their old runs, which
      // holds the same data, so a crash now loses nothing.
      log.error("cannot write the manifest of {} after a move", name, e);
    }
    return true;
  }

  private boolean isClosing() {
    lock.lock();
    try {
      return closing;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The engine's side of the {@link PolicyDriver}: merges go to the scheduler and complete in the
   * background (the policy is asked again when one completes); a move is done at once, so the
   * driver asks again at once. Used under {@code policyLock} only.
   */
  private final class EngineHost implements PolicyDriver.Host {
    private boolean moved;

    @Override
    public boolean start(MergeRequest request) {
      if (request instanceof MergeRequest.Move m) {
        boolean done = move(m);
        moved |= done;
        return done;
      }
      return schedule(request);
    }

    @Override
    public boolean takeChangedAtOnce() {
      boolean m = moved;
      moved = false;
      return m;
    }
  }
}
