package org.strata.lsm.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.StorageException;
import org.strata.lsm.StrataException;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.events.FlushEvent;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.io.RepeatedFailures;
import org.strata.lsm.memory.MemoryComponent;

/**
 * Flushes the sealed memory components of one index, oldest first, on its group's {@link
 * FlushExecutor}: has the log's owner hold the log through the component ({@link LogHold}),
 * writes it with the tree's {@link FlushWriter}, installs it with {@link VersionSet#logAndApply},
 * lets the log drop what is now on disk, and tells the merge policy.
 *
 * <p>Errors. A failed flush is never retried on its own. If a {@link LsmTree#flush()} caller was
 * waiting for that component, the error is thrown to that caller (and writers that find every
 * memory component full fail with it). Otherwise it becomes the sticky <em>background error</em>,
 * as LevelDB's {@code bg_error_}: it is logged once (repeats are only counted), shown in {@code
 * stats}, and every write fails with it until a {@code flush()} (which retries the flush) succeeds.
 * The memory component stays readable and the log keeps its writes throughout.
 *
 * <p>State is guarded by the tree lock, and waiters are woken through the tree's condition.
 */
final class Flusher {
  private final Path dir;
  private final Clock clock;
  private final Logger log;
  private final ReentrantLock lock;
  private final Condition changed;
  private final MemoryComponents memory;
  private final VersionSet versions;
  private final FlushExecutor executor;
  private final FlushWriter writer;
  private final LogHold logHold;
  private final Runnable afterFlush;
  private final RepeatedFailures failures;

  // Guarded by lock.
  @GuardedBy("lock")
  private Throwable failure;
  /**
   * Whether {@code failure} stops writes. Written under the tree lock; volatile because writers
   * also read it without the lock, on {@link WriteGate}'s lock-free path ({@link #stopsWrites()}).
   */
  @GuardedBy("lock")
  private volatile boolean sticky;
  @GuardedBy("lock")
  private long failureSeq;
  @GuardedBy("lock")
  private boolean retryPermitted;
  @GuardedBy("lock")
  private long requestedUpTo = -1;
  /** Id of the newest memory component whose flush and policy call have both completed. */
  @GuardedBy("lock")
  private long handledUpTo;
  @GuardedBy("lock")
  private boolean abandoned;
  @GuardedBy("lock")
  private boolean running;
  @GuardedBy("lock")
  private boolean executorDead;

  /**
   * @param writer how a memory component is written, chosen when the tree opened
   * @param logHold the log's side of each flush, kept by the log's owner
   * @param afterFlush runs after a flush is installed and durable, outside the tree lock (the
   *     merge policy's turn; it logs its own failures)
   */
  Flusher(Path dir, Logger log, ReentrantLock lock, Condition changed, MemoryComponents memory,
      VersionSet versions, FlushExecutor executor, FlushWriter writer, LogHold logHold,
      Runnable afterFlush, Clock clock) {
    this.clock = clock;
    this.dir = dir;
    this.log = log;
    this.lock = lock;
    this.changed = changed;
    this.memory = memory;
    this.versions = versions;
    this.executor = executor;
    this.writer = writer;
    this.logHold = logHold;
    this.afterFlush = afterFlush;
    this.failures = new RepeatedFailures(log, "flush of " + dir);
    executor.register(this);
  }

  /** A component was sealed: queue a flush (unless a failure waits for {@code flush()}). */
  void sealed() {
    executor.submit(this);
  }

  /**
   * Flushes every sealed memory component and waits until each is a disk component and the
   * policy has seen it, retrying a failed flush once. Caller holds the tree lock.
   *
   * @throws StorageException if a flush fails meanwhile (naming its cause)
   */
  void flushSealed() {
    await(request());
  }

  /** A request to flush the sealed memory components up to {@code target}, made at failure seq. */
  record Request(long target, long seq) {}

  /**
   * The first half of {@link #flushSealed()}: requests the flush of every component sealed so far
   * (a failed one retried once) and returns what {@link #await} waits for. A caller that seals and
   * requests under one hold of the tree lock has its request seen by the flush the seal queued.
   * Caller holds the tree lock.
   */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  Request request() {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    long target = memory.newestSealedId();
    requestedUpTo = Math.max(requestedUpTo, target);
    retryPermitted = true;
    executor.submit(this);
    return new Request(target, failureSeq);
  }

  /**
   * The second half of {@link #flushSealed()}: waits until {@code r}'s components are disk
   * components. Caller holds the tree lock.
   *
   * @throws StorageException if a flush fails meanwhile (naming its cause)
   */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  void await(Request r) {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    long target = r.target();
    long seq = r.seq();
    try {
      while (memory.hasSealedUpTo(target) || handledUpTo < target) {
        if (failureSeq != seq) {
          throw new StorageException("flush of " + dir + " failed: " + failure, failure);
        }
        if (abandoned || executorDead) {
          throw new StrataException("flushes of " + dir + " have stopped");
        }
        if (!running && !memory.hasSealedUpTo(target)) {
          // Nothing up to target is left in memory and no flush runs, yet the last was not
          // handled: it installed its component and then failed (its manifest), before this
          // call. The component is in the version (the next manifest lists it) and the log
          // still holds its writes; say so rather than wait for a flush that will not come.
          if (failure != null) {
            throw new StorageException("flush of " + dir + " failed: " + failure, failure);
          }
          break;
        }
        changed.await();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StrataException("interrupted while waiting for a flush", e);
    }
  }

  /** Whether a sticky background error stops writes; reads no lock (it may be a moment old). */
  @SuppressWarnings("GuardedBy") // a volatile read without the lock, on purpose (see sticky)
  boolean stopsWrites() {
    return sticky;
  }

  /** The sticky background error, or null. Caller holds the tree lock. */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  Throwable backgroundError() {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    return sticky ? failure : null;
  }

  /** The error of the last flush if it failed and none succeeded since, else null. Locked. */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  Throwable lastError() {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    return failure;
  }

  /** Failures since the last success. */
  long failureCount() {
    return failures.failures();
  }

  /**
   * Starts no more flushes and waits for a running one to end (the tree is closing, after its
   * last flush, or abandoned). Caller holds the tree lock.
   */
  @SuppressWarnings("GuardedBy") // the caller holds it: asserted, not provable across objects
  void quiesce() {
    assert lock.isHeldByCurrentThread() : "caller holds the tree lock";
    abandoned = true;
    changed.signalAll();
    while (running) {
      changed.awaitUninterruptibly();
    }
  }

  /**
   * Flushes the oldest sealed component if it may be flushed now; runs on the executor.
   *
   * @return true if it flushed one (there may be more)
   */
  boolean flushNext() {
    MemoryComponent mc;
    lock.lock();
    try {
      mc = memory.oldestSealed();
      if (mc == null || abandoned || failure != null && !retryPermitted) {
        return false;
      }
      retryPermitted = false;
      running = true;
    } finally {
      lock.unlock();
    }
    boolean ok = false;
    try {
      flush(mc);
      ok = true;
    } catch (IOException | RuntimeException e) {
      failed(mc, e);
    } finally {
      if (!ok) {
        done(-1);
      }
    }
    if (!ok) {
      return false;
    }
    failures.succeeded();
    lock.lock();
    try {
      failure = null;
      sticky = false;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    try {
      afterFlush.run();
    } finally {
      // flush() returns only after the policy has seen the new component, so that a caller's
      // awaitMerges() covers the merges this flush triggers.
      done(mc.id());
    }
    return true;
  }

  /** A flush attempt ended; {@code handled} is the id it flushed, or -1. */
  private void done(long handled) {
    lock.lock();
    try {
      handledUpTo = Math.max(handledUpTo, handled);
      running = false;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void failed(MemoryComponent mc, Exception e) {
    boolean requested;
    lock.lock();
    try {
      requested = mc.id() <= requestedUpTo;
    } finally {
      lock.unlock();
    }
    failures.failed(e, requested
        ? "the memory component stays readable and flush() retries it (a repeat of the same"
            + " error is only counted)"
        : "writes fail until flush() retries it successfully; the memory component stays"
            + " readable (a repeat of the same error is only counted)");
    lock.lock();
    try {
      failure = e;
      sticky |= !requested;
      failureSeq++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    logHold.flushFailed();
  }

  /** The executor thread ended with {@code e}: no flush will run again. */
  void executorDied(Throwable e) {
    log.error("the flush thread of {} stopped; writes fail from now on", dir, e);
    lock.lock();
    try {
      executorDead = true;
      failure = e;
      sticky = true;
      failureSeq++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    logHold.flushFailed();
  }

  private void flush(MemoryComponent mc) throws IOException {
    long start = clock.nanoTime();
    FlushEvent event = new FlushEvent();
    event.begin();
    logHold.holdThrough(mc);
    if (mc.coldCount() == 0) { // TRIAD-MEM carried every key on: no level-0 component
      Manifest manifest = versions.logAndApply(VersionEdit.retire(mc));
      logHold.flushDurable(manifest);
      commit(event, mc, -1, 0, 0);
      log.info("flush skipped: every key of memory component {} of {} stays in memory", mc.id(),
          dir);
      return;
    }
    long componentId = versions.newComponentId();
    boolean installed = false;
    log.info("flush started: component id {} of {} ({} keys)", componentId, dir,
        mc.entryCount());
    try {
      List<DiskComponent> dcs = writer.write(mc, componentId);
      installed = true; // from here the id is the component's, even if the manifest fails
      versions.crashPoints().reached(CrashPoint.FLUSH_BEFORE_MANIFEST);
      Manifest manifest = versions.logAndApply(VersionEdit.flush(mc, dcs));
      logHold.flushDurable(manifest);
      long bytes = 0;
      for (DiskComponent dc : dcs) {
        bytes += dc.sizeBytes();
      }
      log.info("flush finished: component id {} of {}, {} bytes", componentId, dir, bytes);
      commit(event, mc, componentId, dcs.size(), bytes);
      versions.flushTook(clock.nanoTime() - start);
    } finally {
      if (!installed) {
        versions.returnComponentId(componentId); // keep component ids equal to flush ordinals
      }
    }
  }

  /** Records the flush's JFR event, if a recording enabled it. */
  private void commit(FlushEvent event, MemoryComponent mc, long componentId, int files,
      long bytes) {
    if (!event.shouldCommit()) {
      return;
    }
    event.store = dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
    event.memoryComponent = mc.id();
    event.componentId = componentId;
    event.entries = mc.entryCount();
    event.bytes = bytes;
    event.files = files;
    event.commit();
  }
}
