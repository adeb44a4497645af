package org.strata.lsm.wal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.StorageException;

/**
 * What went wrong with a {@link WriteAheadLog}. A write-out (or segment creation, or catalogue
 * write) that failed: the bytes are kept and written again by the next force, appends are refused
 * meanwhile, and a force that succeeds clears it. A force that failed: the log takes nothing more
 * until reopened.
 *
 * <p>The failures are volatile, set and read under any lock. Whether the current write failure
 * was logged is guarded by the log's {@code forceLock}: the methods that read or change it assert
 * that the caller holds it.
 */
final class LogFailures {
  private static final Logger LOG = LogManager.getLogger(WriteAheadLog.class);

  private final Object forceLock;
  private final Path dir;
  private volatile IOException writeFailure;
  private volatile IOException forceFailure;
  // Whether the current write failure was logged (once per failure).
  @GuardedBy("forceLock")
  private boolean writeFailureLogged;

  /** No failure yet, for the log in {@code dir} whose forceLock is {@code forceLock}. */
  LogFailures(Object forceLock, Path dir) {
    this.forceLock = forceLock;
    this.dir = dir;
  }

  /** The failed write-out, or null. */
  IOException writeFailure() {
    return writeFailure;
  }

  /** The failed force, or null. */
  IOException forceFailure() {
    return forceFailure;
  }

  /** Notes a failed write-out, unless one is noted already. */
  void writeFailed(IOException e) {
    if (writeFailure == null) {
      writeFailure = e;
    }
  }

  /** Notes a failed force: the log is failed for good. */
  void forceFailed(IOException e) {
    forceFailure = e;
  }

  /**
   * Refuses (throws) if the log failed: for good after a failed force, until the next force that
   * succeeds after a failed write-out. {@code segment} is the current segment.
   */
  void check(Path segment) {
    IOException f = forceFailure;
    if (f != null) {
      throw new StorageException(segment, "the write-ahead log failed to force " + segment
          + ": " + f + "; it accepts no more writes until the store is reopened", f);
    }
    f = writeFailure;
    if (f != null) {
      throw new StorageException(segment, "the write-ahead log cannot write to " + dir + ": "
          + f + "; it accepts writes again once what it holds is written (it retries at every"
          + " group commit, sync, flush and close)", f);
    }
  }

  /** After a force that succeeded: a failed write-out is over (logged once). */
  void forced() {
    assert Thread.holdsLock(forceLock) : "the failure log is guarded by forceLock";
    synchronized (forceLock) { // held already: taken again so that the compiler can check it
      if (writeFailure != null) {
        LOG.info("the write-ahead log in {} wrote and forced what it held since it failed ({});"
            + " it accepts writes again", dir, writeFailure.toString());
        writeFailure = null;
        writeFailureLogged = false;
      }
    }
  }

  /**
   * Logs the failure {@code e} of a group commit (taking forceLock): a failed force, or once a
   * failed write-out.
   */
  void groupCommitFailed(RuntimeException e) {
    synchronized (forceLock) {
      if (forceFailure != null) {
        LOG.error("group commit of the write-ahead log in {} failed to force; the log accepts"
            + " no more writes", dir, e);
      } else if (!writeFailureLogged) {
        writeFailureLogged = true;
        LOG.error("group commit of the write-ahead log in {} failed: {}; the log keeps the"
            + " records it holds, tries again at every group commit and refuses writes until"
            + " then", dir, e.getMessage());
      }
    }
  }
}
