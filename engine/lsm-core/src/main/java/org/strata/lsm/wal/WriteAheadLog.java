package org.strata.lsm.wal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.StorageException;
import org.strata.lsm.StrataException;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.io.FileIo;

/**
 * The write-ahead log: segment files {@code wal-<first LSN, 20 digits>.log} in one directory.
 * Appends are encoded into an in-memory buffer under a short lock and assigned consecutive log
 * sequence numbers (LSNs); {@link #sync(long)} writes the buffer and forces it, and concurrent
 * callers share one force (group commit). The store rolls to a new segment whenever it seals a
 * memory component, so a segment can be deleted once every LSN in it is in a disk component. A
 * roll is only marked by the sealing writer; the next force carries it out (old segment written
 * and forced, then the new one created; under {@code none} and {@code unlogged} the log's
 * background thread does so at once), so the writer never waits for that force, whatever the
 * durability.
 *
 * <p>Writing out and forcing take separate locks: a writer that writes out a large buffer never
 * waits for a force in progress (a force can take hundreds of milliseconds while merges write),
 * only for another write-out. A new segment's directory entry is forced by the first force after
 * it is created (the next {@link #sync}, group commit, roll or close), before any of its records
 * is reported durable, and not on the writer that rolled.
 *
 * <p>Recovery ({@link #open}) replays the records with LSN above the flushed LSN. A record that
 * fails its framing or checksum is a torn tail (cut off) only if it is in the last segment and no
 * intact record follows it; anything else is corruption, which the {@link LogRecoveryMode} decides
 * about (refuse, stop there, or skip it). See {@link LogScan} and docs/format.md.
 *
 * <p>Identity. Every segment starts with a {@link SegmentHeader} naming the log's id, and the log
 * keeps its {@link LogCatalog} (the live segments, each sealed one with its size) in the log
 * directory: a new segment is listed once its first force is done, before any of its records is
 * reported durable; truncation lists the log without the segments it drops before it deletes them.
 * The log holds an exclusive {@link DirectoryLock} on its directory while open, so no second store
 * or partition can use it at the same time. After every force a force mark is written (not forced)
 * that certifies how far the segment was forced, so recovery can tell a damaged record the log had
 * forced from a torn tail.
 *
 * <p>Failures. A write-out that fails (a full disk) keeps the bytes it could not write and
 * refuses new appends; every later force (the group commit, a {@code sync}, a flush, close) tries
 * to write them again, and once one succeeds and forces, the log takes appends again. So a write
 * acknowledged before the failure is never dropped while the process lives. A failed force is
 * different: after it the operating system may have dropped the written pages, so the log fails
 * for good (until the store is reopened), as PostgreSQL does after a failed fsync.
 */
public final class WriteAheadLog implements Closeable {
  /** Bytes of the force mark written after each force (docs/format.md). */
  public static final int FORCE_MARK_BYTES = LogRecordCodec.MARK_SIZE;

  private static final Logger LOG = LogManager.getLogger(WriteAheadLog.class);

  private final Durability durability;
  // Everything the log does, under the log's locks (see LogWriter).
  private final LogWriter writer;
  // The group commit under group; the carrier of rolls under none (see roll()); null under sync.
  private final ScheduledExecutorService background;

  /**
   * A log with no segment yet, whose appends follow {@code lastLsn}, holding {@code dirLock} on
   * its directory; {@link #startAfterRecovery} starts it.
   */
  WriteAheadLog(Path dir, Durability durability, FileIo fileIo, long lastLsn,
      long groupCommitMillis, UUID logId, Path owner, DirectoryLock dirLock) {
    this.durability = durability;
    this.writer = new LogWriter(dir, fileIo, lastLsn, logId, owner, dirLock);
    if (durability == Durability.SYNC) {
      this.background = null;
    } else {
      String name = durability == Durability.GROUP ? "strata-wal-group-commit" : "strata-wal-roll";
      ScheduledThreadPoolExecutor ex = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
      });
      if (durability == Durability.GROUP) {
        ex.scheduleWithFixedDelay(this::groupCommit, groupCommitMillis, groupCommitMillis,
            TimeUnit.MILLISECONDS);
      }
      this.background = ex;
    }
  }

  /**
   * Opens the log in {@code dir}, replaying every operation with LSN above {@code flushedLsn}, and
   * starts a new segment for appends. What happens to a bad record is up to {@code mode}. The log
   * is opened on its own, with no owner to check it against (as tests and tools use it): its
   * catalogue names the log directory as its owner.
   *
   * @throws CorruptionException when {@code mode} refuses a bad record; nothing is changed then
   */
  public static WriteAheadLog open(Path dir, Durability durability, long groupCommitMillis,
      FileIo fileIo, LogRecoveryMode mode, long flushedLsn, LogReplayer replayer) {
    return open(dir, durability, groupCommitMillis, fileIo, mode, flushedLsn, flushedLsn,
        null, replayer);
  }

  /**
   * As {@link #open(Path, Durability, long, FileIo, LogRecoveryMode, long, LogReplayer)} for a log
   * owned by {@code owner} (null: a log on its own) and shared by several indexes: operations above
   * {@code replayFrom} are replayed (the replayer filters per index), and new operations get
   * sequence numbers above {@code lsnFloor} (the highest sequence number any index has flushed), so
   * no index ever sees a reused number.
   */
  public static WriteAheadLog open(Path dir, Durability durability, long groupCommitMillis,
      FileIo fileIo, LogRecoveryMode mode, long replayFrom, long lsnFloor, LogOwner owner,
      LogReplayer replayer) {
    return replay(dir, durability, groupCommitMillis, fileIo, mode, replayFrom, lsnFloor, owner,
        replayer).open();
  }

  /** As the next one, for a log on its own (no owner to check it against). */
  public static Replayed replay(Path dir, Durability durability, long groupCommitMillis,
      FileIo fileIo, LogRecoveryMode mode, long replayFrom, long lsnFloor,
      LogReplayer replayer) {
    return replay(dir, durability, groupCommitMillis, fileIo, mode, replayFrom, lsnFloor,
        null, replayer);
  }

  /**
   * The first half of {@link #open(Path, Durability, long, FileIo, LogRecoveryMode, long, long,
   * LogOwner, LogReplayer)}: scans the log and replays it, changing no file, not even creating
   * {@code dir}. {@link Replayed#open()} is the second half. The indexes of a dataset replay every
   * partition's log before any of them is opened, so a refusal of one leaves every log as it was.
   *
   * @throws CorruptionException when {@code mode} refuses what it found, or the log belongs to
   *     another owner; nothing is changed then
   * @throws StrataException when another store or partition has the log open
   */
  public static Replayed replay(Path dir, Durability durability, long groupCommitMillis,
      FileIo fileIo, LogRecoveryMode mode, long replayFrom, long lsnFloor, LogOwner owner,
      LogReplayer replayer) {
    return new Replayed(LogOpening.replay(dir, durability, groupCommitMillis, fileIo, mode,
        replayFrom, lsnFloor, owner, replayer));
  }

  /**
   * A log that has been replayed and not yet changed. {@link #open()} makes the changes the replay
   * decided on (deletes dropped segments, cuts a torn tail, or under point-in-time sets aside what
   * follows the first loss), starts a new segment for appends and writes the catalogue; a {@code
   * Replayed} that is never opened holds nothing and needs no closing.
   */
  public static final class Replayed {
    private final LogOpening opening;

    private Replayed(LogOpening opening) {
      this.opening = opening;
    }

    /**
     * The id the log has, or will have once opened: its catalogue's, the owner's, or (a new log,
     * or one written before logs had ids) a new one chosen now.
     */
    public UUID logId() {
      return opening.logId();
    }

    /** Whether the log has operations above {@code flushedLsn} (it is not empty of data). */
    public boolean holdsOperationsAbove(long flushedLsn) {
      return opening.holdsOperationsAbove(flushedLsn);
    }

    /** Finishes the recovery on disk and opens the log for appends (once). */
    public WriteAheadLog open() {
      return opening.open();
    }
  }

  /**
   * The end of an open, once recovery has finished on disk ({@code r}): lists the segments it
   * kept, writes the catalogue first if the log had none ({@code newCatalog}), starts the segment
   * of {@code last + 1} for appends, forces and lists it, and completes a point-in-time recovery.
   */
  void startAfterRecovery(LogRecovery.Outcome r, boolean newCatalog, long last)
      throws IOException {
    writer.startAfterRecovery(r, newCatalog, last);
  }

  /** This log's id, which every segment header and the catalogue carry. */
  public UUID logId() {
    return writer.logId();
  }

  /** The log's directory. */
  public Path directory() {
    return writer.directory();
  }

  /**
   * Appends one record holding {@code ops} and returns the LSN of its last operation. The record
   * is buffered; {@link #sync} or {@link #writeOutIfLarge} make it reach the file. Under {@code
   * unlogged} nothing is buffered: the operations only take their sequence numbers.
   *
   * @throws StorageException if the log failed (a write-out or force) and has not recovered: the
   *     record is not appended, so the caller applies nothing. After a failed write-out, each
   *     append first tries once more to write (and force) what the log holds, and goes ahead if
   *     that succeeds: a full disk that has room again costs the writers nothing more.
   */
  public long append(List<LogOp> ops) {
    return writer.append(ops, durability != Durability.UNLOGGED);
  }

  /**
   * Bytes of the records appended since this log was opened, framing included; segment headers
   * ({@value SegmentHeader#SIZE} bytes a segment) and force marks ({@value
   * LogRecordCodec#MARK_SIZE} bytes a force) are not records and not counted.
   */
  public long appendedBytes() {
    return writer.appendedBytes();
  }

  /** Highest LSN appended so far. */
  public long lastLsn() {
    return writer.lastLsn();
  }

  /** Highest LSN known to be forced. */
  public long durableLsn() {
    return writer.durableLsn();
  }

  /**
   * Bytes appended that are not written to a file yet (kept there after a failed write-out too).
   */
  public long unwrittenBytes() {
    return writer.unwrittenBytes();
  }

  /**
   * Tests: writes everything buffered to the file without forcing it, as a writer's write-out of
   * a large buffer does.
   */
  void writeOutNow() {
    writer.writeOutNow();
  }

  /**
   * Tests: lets go of the files as a process killed now would, writing nothing more: what was
   * written stays (in the operating system's cache), what was only buffered is lost, and nothing
   * is forced or listed. The log is unusable afterwards.
   */
  void closeAsIfKilled() throws IOException {
    if (background != null) {
      background.shutdownNow();
    }
    writer.closeAsIfKilled();
  }

  /**
   * What a writer does after {@link #append} returned {@code lsn} (and it inserted the operations
   * into its memory components): with durability sync it waits until the record is forced ({@link
   * #sync}); otherwise it only writes the buffer out when it has grown large, and the group commit
   * (or the next force) makes it durable. Under {@code unlogged} the buffer holds no records (a
   * force's mark is written out by the force), so there is nothing to do.
   */
  public void committed(long lsn) {
    if (durability == Durability.SYNC) {
      sync(lsn);
    } else if (durability != Durability.UNLOGGED) {
      writeOutIfLarge();
    }
  }

  /** Writes buffered records to the file (no force) when the buffer has grown large. */
  public void writeOutIfLarge() {
    writer.writeOutIfLarge();
  }

  /** Makes every operation up to {@code lsn} durable; concurrent callers share one force. */
  public void sync(long lsn) {
    writer.sync(lsn);
  }

  /** Makes everything appended so far durable. */
  public void syncAll() {
    writer.syncAll();
  }

  /**
   * Starts a new segment at the next LSN (the store rolls when it seals a memory component). The
   * caller must ensure no append runs concurrently. The roll is only marked in the buffer, whatever
   * the durability; the next force (a {@code sync} writer's, the group commit's, {@link
   * #completeRolls()} before a flush, or close) carries it out first: it writes the old segment
   * out, forces it, and only then creates the new one. So the writer that seals never waits for a
   * force, no record after the roll reaches a file before every record before it is on disk, and
   * only the last segment can lose records in a machine crash. Under {@code none} too: a segment
   * ended unforced would let a later {@link #sync} return while the records before the roll were
   * still only in the operating system's cache, and let a machine crash keep a later segment's
   * records without an earlier one's. Under {@code none}, where no force may come for a long time,
   * a background thread of the log carries the roll out at once (while a roll is pending, writers
   * do not write the buffer out, so it would grow).
   */
  public void roll() {
    if (writer.roll() && (durability == Durability.NONE || durability == Durability.UNLOGGED)) {
      try {
        background.execute(this::rollInBackground);
      } catch (RejectedExecutionException e) {
        // Closing: close() carries out the pending rolls itself.
      }
    }
  }

  private void rollInBackground() {
    if (writer.failedForGood()) {
      return; // the log is failed for good: writers get the error
    }
    try {
      writer.completeRolls();
    } catch (RuntimeException e) {
      LOG.error("rolling the write-ahead log in {} failed: {}; the log refuses writes until a"
          + " force succeeds", writer.directory(), e.getMessage());
    }
  }

  private void groupCommit() {
    if (writer.failedForGood()) {
      return; // the log is failed for good: writers get the error, logged once below
    }
    try {
      syncAll();
    } catch (RuntimeException e) {
      writer.groupCommitFailed(e);
    }
  }

  /**
   * Carries out the rolls asked for so far (see {@link #roll()}): afterwards every operation
   * before the last roll is in a closed, forced segment. A flush calls
   * this before it writes a sealed memory component, so no disk component holds an operation the
   * log could still lose (a dataset's indexes would disagree) and TRIAD-LOG finds its sealed
   * segment.
   */
  public void completeRolls() {
    writer.completeRolls();
  }

  /**
   * What a flush does before it writes a sealed memory component whose operations end at {@code
   * lsn}: carries out the pending rolls ({@link #completeRolls()}) and then makes sure the log's
   * files hold every operation up to {@code lsn}, forced, whatever the durability. So no disk
   * component ever holds an operation a crash can take from the log, even if the component was
   * sealed before its roll was asked for: a dataset's indexes share the log, and one index's
   * component holding a write the log lost for the others would make them disagree after a machine
   * crash. Usually the roll's force already covers {@code lsn}, and this forces nothing more.
   */
  public void holdThrough(long lsn) {
    writer.holdThrough(lsn);
  }

  /**
   * Deletes segments all of whose operations have LSN at most {@code flushedLsn}: lists the log
   * without them in the catalogue first (with the current segment's forced size), then deletes
   * them, so a crash in between leaves segments the next open knows it may delete.
   */
  public void truncateUpTo(long flushedLsn) {
    writer.truncateUpTo(flushedLsn);
  }

  /**
   * TRIAD-LOG: the sealed segment (not the one appends go to) that holds every sequence number
   * from {@code from} to {@code to}, or null if no single sealed segment does.
   */
  public Path sealedSegmentHolding(long from, long to) {
    return writer.sealedSegmentHolding(from, to);
  }

  /** Number of segment files, for tests and statistics. */
  public int segmentCount() {
    return writer.segmentCount();
  }

  /**
   * Writes and forces what is buffered, lists the current segment at its final size, closes it and
   * releases the log directory. If the log failed, it tries once more to write what it holds; what
   * it still cannot write is reported (those records were appended but are not in the log).
   */
  @Override
  public void close() {
    if (background != null) {
      // No interrupt: an interrupted force would close the log's channel under us.
      background.shutdown();
      try {
        background.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    writer.close();
  }
}
