package org.strata.lsm.engine;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.strata.lsm.StorageException;
import org.strata.lsm.StrataException;
import org.strata.lsm.io.Clock;

/**
 * The wait loop of a writer: asks {@link WriteAdmission} with the state its {@link Site} reports
 * and carries out each decision (seal, pace, wait on the condition counting the stall, or fail)
 * until the write is admitted. A tree's writers ({@link WriteGate}) and a dataset partition's
 * ({@link TreeGroup}) run this one loop; they differ only in their site.
 */
final class AdmissionLoop {
  /** Where a writer waits: the state it sees and how it seals, paces and fails. */
  interface Site {
    /** Throws if the index or partition is closed. */
    void ensureOpen();

    /** What the writer sees now, with {@code unpacedBytes} of its write still to pace. */
    WriteAdmission.State state(long unpacedBytes);

    /** Seals the active memory component(s). Called with the lock held. */
    void seal();

    /** Acquires {@code bytes} from the write limiter; must not hold the lock while it sleeps. */
    void pace(long bytes);

    /** The exception that fails the write. */
    StorageException failure(WriteAdmission.Decision d);
  }

  private AdmissionLoop() {}

  /**
   * Returns once the write is admitted. Takes {@code lock}; waits on {@code changed}, which every
   * change that can end a wait signals.
   */
  static void admit(WriteAdmission admission, ReentrantLock lock, Condition changed, Clock clock,
      StallTracker stalls, Site site, long unpacedBytes) {
    long unpaced = unpacedBytes;
    boolean waited = false;
    lock.lock();
    try {
      while (true) {
        site.ensureOpen();
        WriteAdmission.Decision d = admission.decide(site.state(unpaced));
        switch (d.action()) {
          case ADMIT -> {
            if (waited) {
              stalls.end(clock.nanoTime());
            }
            return;
          }
          case SEAL -> site.seal();
          case PACE -> {
            lock.unlock();
            try {
              site.pace(d.bytes());
            } finally {
              lock.lock();
            }
            unpaced = 0;
          }
          case WAIT -> {
            stalls.waiting(d.reason().stallCause(), clock.nanoTime());
            waited = true;
            changed.await();
          }
          case FAIL -> throw site.failure(d);
          default -> throw new IllegalStateException(d.toString());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StrataException("interrupted while waiting for a write stall to end", e);
    } finally {
      lock.unlock();
    }
  }
}
