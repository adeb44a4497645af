package org.strata.lsm.engine;

import java.nio.file.Path;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.strata.lsm.StorageException;
import org.strata.lsm.StrataException;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.IoThrottle;

/**
 * Where the writers of one tree wait: gathers the {@link WriteAdmission.State} under the tree lock
 * and carries out the decision (has its group seal when the tree's own memory components are
 * the budget, as a store's are; paces through the write limiter outside the lock; waits on the
 * tree's condition while counting the stall; or fails the write), as Hyracks' {@code LSMHarness}
 * does for its flow control. Every wait is signalled: a
 * seal, a finished or failed flush, a finished merge, a re-evaluated constraint and close all
 * signal the condition.
 */
final class WriteGate {
  private final Path dir;
  private final ReentrantLock lock;
  private final Condition changed;
  private final Clock clock;
  private final WriteAdmission admission;
  private final IoThrottle writeLimiter;
  private final MemoryComponents memory;
  private final Flusher flusher;
  private final MergeCoordinator merges;
  private final VersionSet versions;
  private final EngineStats stats;
  private final TreeServices.Sealer sealer;
  private final Runnable ensureOpen;
  /** Whether writes may be paced ({@code flow-control.admission} is not {@code asap}). */
  private final boolean paces;

  /**
   * @param writeLimiter paces writes to {@code flow-control.write-rate}
   * @param sealer the group's seal, for a writer whose tree's memory is full
   * @param ensureOpen throws if the tree is closed
   */
  WriteGate(Path dir, ReentrantLock lock, Condition changed, Clock clock,
      WriteAdmission admission, IoThrottle writeLimiter, MemoryComponents memory,
      Flusher flusher, MergeCoordinator merges, VersionSet versions, EngineStats stats,
      TreeServices.Sealer sealer, Runnable ensureOpen) {
    this.dir = dir;
    this.lock = lock;
    this.changed = changed;
    this.clock = clock;
    this.admission = admission;
    this.writeLimiter = writeLimiter;
    this.memory = memory;
    this.flusher = flusher;
    this.merges = merges;
    this.versions = versions;
    this.stats = stats;
    this.sealer = sealer;
    this.ensureOpen = ensureOpen;
    this.paces = admission.admission() != org.strata.lsm.config.FlowControl.Admission.ASAP;
  }

  /** Whether writes may be paced (so their bytes are worth counting). */
  boolean paces() {
    return paces;
  }

  /**
   * Returns once a write may go ahead.
   *
   * <p>Without taking the tree lock when nothing can stop the write: writes are not paced, no
   * sticky background error, no violated constraint with a merge pending, and (if checked) the
   * active memory component is not full. Those are the only states in which {@link
   * WriteAdmission#decide} does not admit, and each is read from a volatile field written under
   * the tree lock, so the write is admitted as the locked decision would have admitted it a moment
   * earlier, as any admitted write is admitted before it inserts. Anything else takes the lock and
   * the decision's loop.
   *
   * @param checked the memory this writer checks ({@code NONE} for a tree of a partition)
   * @param unpacedBytes bytes of the write to pace (0: not paced)
   * @throws StorageException if a flush failure stops writes
   */
  void admit(WriteAdmission.Memory checked, long unpacedBytes) {
    if (!paces && !flusher.stopsWrites() && !merges.stopsWrites()
        && (checked == WriteAdmission.Memory.NONE || !memory.activeFull())) {
      ensureOpen.run();
      return;
    }
    AdmissionLoop.admit(admission, lock, changed, clock, stats.stalls(), new AdmissionLoop.Site() {
      @Override
      public void ensureOpen() {
        ensureOpen.run();
      }

      @Override
      public WriteAdmission.State state(long unpaced) {
        return WriteGate.this.state(checked, unpaced);
      }

      @Override
      public void seal() {
        sealer.seal(true);
      }

      @Override
      public void pace(long bytes) {
        WriteGate.this.pace(bytes);
      }

      @Override
      public StorageException failure(WriteAdmission.Decision d) {
        return WriteGate.this.failure(d);
      }
    }, unpacedBytes);
  }

  private WriteAdmission.State state(WriteAdmission.Memory checked, long unpaced) {
    boolean pacing = unpaced > 0;
    return new WriteAdmission.State(flusher.backgroundError(), unpaced,
        pacing ? versions.current().diskComponentCount() : 0,
        pacing ? merges.policy().componentConstraint() : Integer.MAX_VALUE, checked,
        memory.activeFull(), memory.canSeal(), flusher.lastError(), merges.constraintViolated(),
        merges.mergePending());
  }

  /** Acquires {@code bytes} from the write limiter (the loop has released the tree lock). */
  private void pace(long bytes) {
    try {
      writeLimiter.acquire(bytes, false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StrataException("interrupted while pacing a write", e);
    }
  }

  private StorageException failure(WriteAdmission.Decision d) {
    if (d.reason() == WriteAdmission.Reason.BACKGROUND_ERROR) {
      return new StorageException("writes to " + dir + " are stopped: a background flush failed: "
          + d.error() + "; flush() retries it", d.error());
    }
    return new StorageException("writes are stopped: every memory component is full and the last"
        + " flush failed: " + d.error(), d.error());
  }
}
