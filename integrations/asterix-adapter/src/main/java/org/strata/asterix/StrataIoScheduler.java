package org.strata.asterix;

import java.io.Closeable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hyracks.storage.am.lsm.common.api.IIoOperationFailedCallback;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeSchedulerFactory;
import org.strata.scheduler.ThreadOperationRunner;

/**
 * Hyracks' I/O operation scheduler backed by a Strata merge scheduler ({@code single-thread},
 * {@code fair}, {@code greedy}, or any other found by name).
 *
 * <p>Merges go to a Strata scheduler, one instance per {@linkplain Scope scope}: per index (the
 * default, as in Luo &amp; Carey and in Hyracks' own greedy scheduler: greedy then runs, for each
 * index, only its merge with the fewest remaining pages) or one for the whole node (greedy then
 * runs the k smallest merges of all indexes). The Strata scheduler decides when each merge runs
 * and pauses and resumes it through Hyracks' {@code ILSMIOOperation.pause/resume}; the ordering
 * uses Hyracks' {@code getRemainingPages()}.
 *
 * <p>Flushes keep Hyracks' rules: at most one at a time per index, at most {@code
 * maxRunningFlushes} at a time in all (0 for no limit), the others wait in arrival order; after a
 * failed flush the index's later flushes fail at once, as Hyracks' own schedulers do. Every failed
 * operation is reported to Hyracks' {@link IIoOperationFailedCallback}, and every operation is
 * completed (which wakes whoever waits for it), successful or not. Replication and load
 * operations run at once on their own threads.
 *
 * <p>This scheduler completes operations itself; {@link #completeOperation} does nothing.
 */
public final class StrataIoScheduler implements ILSMIOOperationScheduler, Closeable {
  private static final Logger LOG = LogManager.getLogger(StrataIoScheduler.class);

  /** Which merges one Strata scheduler instance sees. */
  public enum Scope {
    /** One Strata scheduler per Hyracks index identifier. */
    INDEX,
    /** One Strata scheduler for every merge this Hyracks scheduler receives. */
    NODE
  }

  private final NamedPlugin scheduler;
  private final MergeSchedulerFactory factory;
  private final Scope scope;
  private final ThreadFactory threadFactory;
  private final IIoOperationFailedCallback failureCallback;
  private final int maxRunningFlushes;
  private final ExecutorService ioThreads;
  /** The threads running a flush now, for a rate limiter that serves flushes first. */
  private final Set<Thread> flushThreads = ConcurrentHashMap.newKeySet();
  private final List<MergeListener> listeners = new CopyOnWriteArrayList<>();

  private final Map<String, MergeScheduler> mergeSchedulers = new HashMap<>();
  private final Map<String, List<HyracksIoOperation>> liveMerges = new HashMap<>();
  private final Map<String, ILSMIOOperation> runningFlushes = new HashMap<>();
  private final Deque<ILSMIOOperation> waitingFlushes = new ArrayDeque<>();
  private final Map<String, Throwable> failedIndexes = new HashMap<>();
  private long nextMergeId = 1;
  private long mergesScheduled;
  private long mergesCompleted;
  private long operationsFailed;
  private boolean closed;

  /**
   * @param scheduler the Strata merge scheduler and its parameters
   * @param scope whether each index gets its own Strata scheduler or the node shares one
   * @param threadFactory makes the threads flushes and merges run on (Hyracks passes its own)
   * @param failureCallback told about every failed operation; null to only log failures
   * @param maxRunningFlushes flushes that may run at once over all indexes; 0 for no limit
   * @throws org.strata.lsm.InvalidConfigurationException for an unknown scheduler or a bad
   *     parameter, with Strata's message
   */
  public StrataIoScheduler(NamedPlugin scheduler, Scope scope, ThreadFactory threadFactory,
      IIoOperationFailedCallback failureCallback, int maxRunningFlushes) {
    if (maxRunningFlushes < 0) {
      throw new IllegalArgumentException("maxRunningFlushes must be >= 0, got "
          + maxRunningFlushes);
    }
    this.scheduler = scheduler;
    this.factory = check(scheduler);
    this.scope = scope;
    this.threadFactory = threadFactory;
    this.failureCallback = failureCallback;
    this.maxRunningFlushes = maxRunningFlushes;
    this.ioThreads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
        new SynchronousQueue<>(), threadFactory);
  }

  /**
   * Finds the scheduler's factory and makes (and closes) one instance, so an unknown name or a bad
   * parameter fails now with Strata's message rather than at the first merge.
   */
  static MergeSchedulerFactory check(NamedPlugin scheduler) {
    MergeSchedulerFactory f = Plugins.schedulerFactory(scheduler);
    f.create(scheduler.parameters(), new ThreadOperationRunner(Thread::new)).close();
    return f;
  }

  /** The Strata scheduler this runs, with its parameters. */
  public NamedPlugin scheduler() {
    return scheduler;
  }

  /**
   * True while {@code thread} runs a flush of this scheduler: a page written on it is a flush's
   * page. (Hyracks' rate limiters are asked for bytes without the operation that writes them.)
   */
  public boolean runsFlushOn(Thread thread) {
    return flushThreads.contains(thread);
  }

  /** Where one Strata scheduler's view ends. */
  public Scope scope() {
    return scope;
  }

  /** Adds a listener for merge events. */
  public void addListener(MergeListener listener) {
    listeners.add(listener);
  }

  @Override
  public void scheduleOperation(ILSMIOOperation op) {
    switch (op.getIOOpertionType()) {
      case FLUSH:
        scheduleFlush(op);
        break;
      case MERGE:
        scheduleMerge(op);
        break;
      case NOOP:
        break;
      default:
        if (!refuseIfClosed(op)) {
          ioThreads.execute(() -> runAlone(op));
        }
        break;
    }
  }

  /** Does nothing: this scheduler completes each operation when it returns. */
  @Override
  public void completeOperation(ILSMIOOperation op) {
    // completion is handled in runFlush, runAlone and mergeReturned
  }

  // ---- flushes ----------------------------------------------------------------------------

  private void scheduleFlush(ILSMIOOperation op) {
    synchronized (this) {
      if (refuseIfClosed(op) || failIfIndexFailed(op)) {
        return;
      }
      if (canStartFlush(op)) {
        startFlush(op);
      } else {
        waitingFlushes.add(op);
      }
    }
  }

  private boolean canStartFlush(ILSMIOOperation op) {
    return !runningFlushes.containsKey(op.getIndexIdentifier())
        && (maxRunningFlushes == 0 || runningFlushes.size() < maxRunningFlushes);
  }

  /** Caller holds this. */
  private void startFlush(ILSMIOOperation op) {
    runningFlushes.put(op.getIndexIdentifier(), op);
    ioThreads.execute(() -> runFlush(op));
  }

  private void runFlush(ILSMIOOperation op) {
    Thread self = Thread.currentThread();
    flushThreads.add(self);
    boolean failed;
    try {
      failed = !call(op);
    } finally {
      flushThreads.remove(self);
    }
    if (failed) {
      synchronized (this) {
        failedIndexes.put(op.getIndexIdentifier(), op.getFailure());
      }
    }
    op.complete();
    synchronized (this) {
      runningFlushes.remove(op.getIndexIdentifier());
      for (Iterator<ILSMIOOperation> it = waitingFlushes.iterator(); it.hasNext(); ) {
        ILSMIOOperation next = it.next();
        if (failIfIndexFailed(next)) {
          it.remove();
        } else if (canStartFlush(next)) {
          it.remove();
          startFlush(next);
        } else if (maxRunningFlushes != 0 && runningFlushes.size() >= maxRunningFlushes) {
          break;
        }
      }
    }
  }

  /** Caller holds this. Fails a flush of an index whose earlier flush failed. */
  private boolean failIfIndexFailed(ILSMIOOperation op) {
    Throwable cause = failedIndexes.get(op.getIndexIdentifier());
    if (cause == null) {
      return false;
    }
    op.setStatus(LSMIOOperationStatus.FAILURE);
    op.setFailure(new IllegalStateException("an earlier flush of index "
        + op.getIndexIdentifier() + " failed; its later flushes fail too", cause));
    op.complete();
    return true;
  }

  private void runAlone(ILSMIOOperation op) {
    call(op);
    op.complete();
  }

  /** Runs the Hyracks operation; reports a failure. @return whether it succeeded */
  private boolean call(ILSMIOOperation op) {
    try {
      op.call();
    } catch (Throwable t) { // an I/O thread must always complete its operation
      op.setFailure(t);
    }
    if (op.getStatus() != LSMIOOperationStatus.FAILURE) {
      return true;
    }
    reportFailure(op);
    return false;
  }

  private void reportFailure(ILSMIOOperation op) {
    synchronized (this) {
      operationsFailed++;
    }
    Throwable cause = op.getFailure() != null ? op.getFailure()
        : new IllegalStateException(op.getIOOpertionType() + " of " + op.getIndexIdentifier()
            + " failed without a cause");
    if (failureCallback != null) {
      failureCallback.operationFailed(op, cause);
    } else {
      LOG.error("{} of index {} failed", op.getIOOpertionType(), op.getIndexIdentifier(), cause);
    }
  }

  /** Caller may hold this. Fails an operation handed to a closed scheduler. */
  private boolean refuseIfClosed(ILSMIOOperation op) {
    synchronized (this) {
      if (!closed) {
        return false;
      }
    }
    op.setStatus(LSMIOOperationStatus.FAILURE);
    op.setFailure(new IllegalStateException("the I/O scheduler is closed"));
    op.complete();
    return true;
  }

  // ---- merges -----------------------------------------------------------------------------

  private String scopeKey(ILSMIOOperation op) {
    return scope == Scope.INDEX ? op.getIndexIdentifier() : "";
  }

  private void scheduleMerge(ILSMIOOperation op) {
    HyracksIoOperation merge;
    MergeScheduler target;
    synchronized (this) {
      if (refuseIfClosed(op)) {
        return;
      }
      merge = new HyracksIoOperation(nextMergeId++, op, this);
      String key = scopeKey(op);
      target = mergeSchedulers.computeIfAbsent(key,
          k -> factory.create(scheduler.parameters(), new ThreadOperationRunner(threadFactory)));
      liveMerges.computeIfAbsent(key, k -> new ArrayList<>()).add(merge);
      mergesScheduled++;
    }
    for (MergeListener l : listeners) {
      l.scheduled(merge.view());
    }
    target.schedule(merge);
  }

  void mergeStarted(HyracksIoOperation merge) {
    if (!listeners.isEmpty()) {
      Views v = views(merge);
      for (MergeListener l : listeners) {
        l.started(v.self(), v.others());
      }
    }
  }

  void resumedByScheduler(HyracksIoOperation merge) {
    if (!listeners.isEmpty()) {
      Views v = views(merge);
      for (MergeListener l : listeners) {
        l.resumed(v.self(), v.others());
      }
    }
  }

  void pausedByScheduler(HyracksIoOperation merge) {
    for (MergeListener l : listeners) {
      l.paused(merge.view());
    }
  }

  void mergeReturned(HyracksIoOperation merge, boolean success) {
    ILSMIOOperation op = merge.hyracksOperation();
    if (!success) {
      if (op.getStatus() != LSMIOOperationStatus.FAILURE) {
        op.setStatus(LSMIOOperationStatus.FAILURE);
      }
      reportFailure(op);
    }
    op.complete();
    MergeScheduler target;
    synchronized (this) {
      String key = scopeKey(op);
      List<HyracksIoOperation> live = liveMerges.get(key);
      live.remove(merge);
      if (live.isEmpty()) {
        liveMerges.remove(key);
      }
      mergesCompleted++;
      target = mergeSchedulers.get(key);
    }
    for (MergeListener l : listeners) {
      l.completed(merge.view(), success);
    }
    target.completed(merge);
  }

  /** A merge's view and those of the other live merges of its scope, taken together. */
  private record Views(MergeListener.MergeView self, List<MergeListener.MergeView> others) {}

  /**
   * One snapshot of {@code merge} and the other live merges of its scope, under this monitor,
   * under which a merge's started and paused flags change too ({@link HyracksIoOperation}).
   */
  private synchronized Views views(HyracksIoOperation merge) {
    List<MergeListener.MergeView> out = new ArrayList<>();
    for (HyracksIoOperation m : liveMerges.getOrDefault(scopeKey(merge.hyracksOperation()),
        List.of())) {
      if (m != merge) {
        out.add(m.view());
      }
    }
    return new Views(merge.view(), out);
  }

  // ---- state ------------------------------------------------------------------------------

  /** Merges scheduled and not yet returned, over all scopes. */
  public synchronized int liveMergeCount() {
    int n = 0;
    for (List<HyracksIoOperation> l : liveMerges.values()) {
      n += l.size();
    }
    return n;
  }

  /** True when no flush or merge is running or waiting. */
  public synchronized boolean idle() {
    return liveMerges.isEmpty() && runningFlushes.isEmpty() && waitingFlushes.isEmpty();
  }

  /** Merges handed to Strata schedulers since creation. */
  public synchronized long mergesScheduled() {
    return mergesScheduled;
  }

  /** Merges that returned since creation, successful or not. */
  public synchronized long mergesCompleted() {
    return mergesCompleted;
  }

  /** Flushes, merges and other operations that failed since creation. */
  public synchronized long operationsFailed() {
    return operationsFailed;
  }

  /**
   * Refuses new operations, lets paused merges run to their end (Hyracks merges cannot be
   * abandoned half-way without leaving their inputs marked as merging) and waits for every
   * running operation.
   */
  @Override
  public void close() {
    List<MergeScheduler> all;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      all = new ArrayList<>(mergeSchedulers.values());
    }
    for (MergeScheduler s : all) {
      s.close();
    }
    List<HyracksIoOperation> dropped = new ArrayList<>();
    synchronized (this) {
      for (List<HyracksIoOperation> l : liveMerges.values()) {
        for (HyracksIoOperation m : l) {
          if (!m.started()) {
            dropped.add(m);
          }
        }
      }
    }
    for (HyracksIoOperation m : dropped) { // a queued merge the Strata scheduler dropped
      m.hyracksOperation().setFailure(new IllegalStateException("the I/O scheduler closed "
          + "before this merge started"));
      m.hyracksOperation().complete();
    }
    ioThreads.shutdown();
    try {
      if (!ioThreads.awaitTermination(5, TimeUnit.MINUTES)) {
        LOG.warn("a Hyracks flush did not finish within 5 minutes of closing its scheduler");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "strata:" + scheduler.name() + scheduler.parameters() + " per "
        + scope.name().toLowerCase(java.util.Locale.ROOT);
  }
}
