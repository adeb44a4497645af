package org.strata.lsm.wal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.io.FileIo;

/**
 * The opening of a {@link WriteAheadLog} in its two halves: {@link #replay} scans the log and
 * replays it, changing no file; {@link #open()} makes the changes the replay decided on and opens
 * the log for appends. What {@link WriteAheadLog.Replayed} does. Used by one thread; it holds no
 * lock of the log (the log it opens takes its own {@code forceLock} to start its first segment).
 */
final class LogOpening {
  private static final Logger LOG = LogManager.getLogger(WriteAheadLog.class);

  private final Path dir;
  private final Durability durability;
  private final long groupCommitMillis;
  private final FileIo fileIo;
  private final long replayFrom;
  private final long lsnFloor;
  private final LogOwner owner;
  private final LogRecovery.Replayed replayed;
  private final UUID chosenId = UUID.randomUUID();

  private LogOpening(Path dir, Durability durability, long groupCommitMillis, FileIo fileIo,
      long replayFrom, long lsnFloor, LogOwner owner, LogRecovery.Replayed replayed) {
    this.dir = dir;
    this.durability = durability;
    this.groupCommitMillis = groupCommitMillis;
    this.fileIo = fileIo;
    this.replayFrom = replayFrom;
    this.lsnFloor = lsnFloor;
    this.owner = owner;
    this.replayed = replayed;
  }

  /**
   * Scans the log in {@code dir} and replays it, changing no file, not even creating {@code dir}
   * (see {@link WriteAheadLog#replay(Path, Durability, long, FileIo, LogRecoveryMode, long, long,
   * LogOwner, LogReplayer)}).
   */
  @SuppressWarnings("try") // the lock is held for the scope of the try, not used in it
  static LogOpening replay(Path dir, Durability durability, long groupCommitMillis,
      FileIo fileIo, LogRecoveryMode mode, long replayFrom, long lsnFloor, LogOwner owner,
      LogReplayer replayer) {
    try {
      // Refused at once if the log is open elsewhere; the exclusive lock is taken by open().
      try (DirectoryLock probe = DirectoryLock.acquireSharedIfPresent(dir, inUse(dir))) {
        LogRecovery.Replayed r = LogRecovery.replay(dir, fileIo, mode, replayFrom, owner,
            replayer);
        return new LogOpening(dir, durability, groupCommitMillis, fileIo, replayFrom, lsnFloor,
            owner, r);
      }
    } catch (IOException e) {
      throw new StorageException("cannot open write-ahead log in " + dir + ": " + e, e);
    }
  }

  private static String inUse(Path dir) {
    return "log directory " + dir + " is in use by another store or dataset partition (or by"
        + " this one, open already); give each its own log.dir";
  }

  /**
   * The id the log has, or will have once opened: its catalogue's, the owner's, or (a new log,
   * or one written before logs had ids) a new one chosen now.
   */
  UUID logId() {
    UUID found = replayed.scan().logId();
    return found != null ? found : chosenId;
  }

  /** Whether the log has operations above {@code flushedLsn} (it is not empty of data). */
  boolean holdsOperationsAbove(long flushedLsn) {
    return replayed.scan().lastLsn() > flushedLsn && replayed.scan().operations() > 0;
  }

  /** Finishes the recovery on disk and opens the log for appends (once). */
  WriteAheadLog open() {
    DirectoryLock lock = null;
    try {
      Files.createDirectories(dir);
      lock = DirectoryLock.acquire(dir, inUse(dir));
      LogRecovery.Outcome r = LogRecovery.finish(replayed);
      long last = Math.max(Math.max(replayFrom, lsnFloor), r.lastLsn());
      WriteAheadLog wal = new WriteAheadLog(dir, durability, fileIo, last, groupCommitMillis,
          logId(), owner != null ? owner.dir() : dir.toAbsolutePath().normalize(), lock);
      try {
        wal.startAfterRecovery(r, replayed.scan().catalog() == null, last);
      } catch (IOException | RuntimeException e) {
        wal.close();
        throw e;
      }
      return wal;
    } catch (IOException e) {
      closeQuietly(lock);
      throw new StorageException("cannot open write-ahead log in " + dir + ": " + e, e);
    } catch (RuntimeException e) {
      closeQuietly(lock);
      throw e;
    }
  }

  /** Releases {@code lock} (if not null), logging a failure. */
  static void closeQuietly(DirectoryLock lock) {
    if (lock != null) {
      try {
        lock.close();
      } catch (IOException e) {
        LOG.warn("cannot release the lock of a log directory: {}", e.toString());
      }
    }
  }
}
