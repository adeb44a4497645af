package org.strata.lsm.wal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.StorageException;
import org.strata.lsm.StrataException;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoClass;
import org.strata.lsm.io.WritableFile;

/**
 * The write-ahead log: segment files {@code wal-<first LSN, 20 digits>.log} in one directory.
 * Appends are encoded into an in-memory buffer under a short lock and assigned consecutive log
 * sequence numbers (LSNs); {@link #sync(long)} writes the buffer and forces it, and concurrent
 * callers share one force (group commit). The store rolls to a new segment whenever it seals a
 * memory component, so a segment can be deleted once every LSN in it is in a disk component. A
 * roll is only marked by the sealing writer; the next force carries it out (old segment written
 * and forced, then the new one created; under {@code none} the log's background thread does so at
 * once), so the writer never waits for that force, whatever the durability.
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
  private static final Logger LOG = LogManager.getLogger(WriteAheadLog.class);
  /** Bytes of the force mark written after each force (docs/format.md). */
  public static final int FORCE_MARK_BYTES = LogRecordCodec.MARK_SIZE;

  private final Path dir;
  private final Durability durability;
  private final FileIo fileIo;
  private final UUID logId;
  private final Path owner;
  private final DirectoryLock dirLock;
  // Lock order: forceLock, then writeLock, then this.
  // Serializes forces, rolls, truncation, catalogue writes and close; guards which segment is
  // current and the segment states.
  private final Object forceLock = new Object();
  // Serializes write-outs to the current segment.
  private final Object writeLock = new Object();
  // The segment states and the catalogue (the current segment's entry changes under writeLock
  // too).
  @GuardedBy("forceLock")
  private final LogSegments segments;
  // The group commit under group; the carrier of rolls under none (see roll()); null under sync.
  private final ScheduledExecutorService background;

  // The records appended and not written out yet, with the rolls asked for (see roll()).
  @GuardedBy("this")
  private final AppendBuffer buffer;
  // Set under this; read also under forceLock alone, hence volatile.
  private volatile boolean closed;
  /** Bytes of the records appended since open (read without the lock). */
  private final LongAdder appendedBytes = new LongAdder();

  // Changed under forceLock and writeLock; read under either.
  private WritableFile segment;
  private Path segmentPath;
  private volatile long durableLsn;
  private volatile long writtenLsn;
  // A write-out (or segment creation, or catalogue write) failed: the bytes are kept and written
  // again by the next force; appends are refused meanwhile. Cleared by a force that succeeds.
  private volatile IOException writeFailure;
  // A force failed: the log takes nothing more until reopened.
  private volatile IOException forceFailure;
  // Guarded by forceLock: whether the current write failure was logged (once per failure).
  @GuardedBy("forceLock")
  private boolean writeFailureLogged;

  /**
   * A log with no segment yet, whose appends follow {@code lastLsn}, holding {@code dirLock} on
   * its directory; {@link #startAfterRecovery} starts it.
   */
  WriteAheadLog(Path dir, Durability durability, FileIo fileIo, long lastLsn,
      long groupCommitMillis, UUID logId, Path owner, DirectoryLock dirLock) {
    this.dir = dir;
    this.durability = durability;
    this.fileIo = fileIo;
    this.logId = logId;
    this.owner = owner;
    this.dirLock = dirLock;
    this.buffer = new AppendBuffer(this, lastLsn);
    this.segments = new LogSegments(forceLock, dir, fileIo, logId, owner);
    this.durableLsn = lastLsn;
    this.writtenLsn = lastLsn;
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
   * owned by {@code owner} (null: a log on its own) and shared by several indexes: operations above {@code replayFrom} are
   * replayed (the replayer filters per index), and new operations get sequence numbers above
   * {@code lsnFloor} (the highest sequence number any index has flushed), so no index ever sees a
   * reused number.
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
    synchronized (forceLock) {
      for (Map.Entry<Long, LogRecovery.Kept> e : r.segments().entrySet()) {
        LogRecovery.Kept k = e.getValue();
        segments.addSealed(e.getKey(), k.file(), k.format(), k.size());
      }
      if (newCatalog) {
        // A new log, or one written before catalogues: the catalogue exists before the first
        // segment with a header, so no such segment is ever without one.
        segments.publish(segmentPath);
      }
      synchronized (writeLock) {
        startSegment(last + 1);
      }
      forceCurrent();
      segments.setAside(r.setAside());
      segments.publishIfPending(segmentPath);
      if (r.setAside() != null) {
        LogRecovery.completeSetAside(r, dir, fileIo);
        segments.setAside(null);
        segments.publish(segmentPath);
      }
    }
  }

  /** This log's id, which every segment header and the catalogue carry. */
  public UUID logId() {
    return logId;
  }

  /** The log's directory. */
  public Path directory() {
    return dir;
  }

  // Must hold forceLock and writeLock. The segment is listed in the catalogue at its first force.
  @GuardedBy("forceLock")
  private void startSegment(long firstLsn) throws IOException {
    Path p = dir.resolve(LogScan.segmentName(firstLsn));
    WritableFile f = fileIo.create(p);
    try {
      f.write(ByteBuffer.wrap(new SegmentHeader(logId, firstLsn).encode()));
    } catch (IOException e) {
      try {
        f.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    segment = f;
    segmentPath = p;
    segments.started(firstLsn, p);
  }

  // Must hold forceLock. Forces the current segment and notes how far it is forced.
  @GuardedBy("forceLock")
  private void forceCurrent() throws IOException {
    long size = segment.size(); // what was written before the force began is covered by it
    try {
      IoClass.callAs(IoClass.FOREGROUND, () -> {
        segment.force(); // the writers' force, whichever thread carries it out
        return null;
      });
    } catch (IOException e) {
      forceFailure = e;
      throw e;
    }
    segments.forcedTo(size);
  }

  /**
   * Appends one record holding {@code ops} and returns the LSN of its last operation. The record
   * is buffered; {@link #sync} or {@link #writeOutIfLarge} make it reach the file.
   *
   * @throws StorageException if the log failed (a write-out or force) and has not recovered: the
   *     record is not appended, so the caller applies nothing. After a failed write-out, each
   *     append first tries once more to write (and force) what the log holds, and goes ahead if
   *     that succeeds: a full disk that has room again costs the writers nothing more.
   */
  public long append(List<LogOp> ops) {
    if (writeFailure != null && forceFailure == null) {
      synchronized (forceLock) {
        if (writeFailure != null && forceFailure == null && !closed) {
          try {
            forceLocked();
          } catch (RuntimeException e) {
            // still failing: appendLocked refuses, naming the failure
          }
        }
      }
    }
    return appendLocked(ops);
  }

  private synchronized long appendLocked(List<LogOp> ops) {
    if (closed) {
      throw new StorageException("the write-ahead log is closed", null);
    }
    checkFailures();
    int size = LogRecordCodec.encodedSize(ops);
    appendedBytes.add(size);
    return buffer.append(ops, size);
  }

  private void checkFailures() {
    IOException f = forceFailure;
    if (f != null) {
      throw new StorageException(segmentPath, "the write-ahead log failed to force " + segmentPath
          + ": " + f + "; it accepts no more writes until the store is reopened", f);
    }
    f = writeFailure;
    if (f != null) {
      throw new StorageException(segmentPath, "the write-ahead log cannot write to " + dir + ": "
          + f + "; it accepts writes again once what it holds is written (it retries at every"
          + " group commit, sync, flush and close)", f);
    }
  }

  /**
   * Bytes of the records appended since this log was opened, framing included; segment headers
   * ({@value SegmentHeader#SIZE} bytes a segment) and force marks ({@value
   * LogRecordCodec#MARK_SIZE} bytes a force) are not records and not counted.
   */
  public long appendedBytes() {
    return appendedBytes.sum();
  }

  /** Highest LSN appended so far. */
  public synchronized long lastLsn() {
    return buffer.lastLsn();
  }

  /** Highest LSN known to be forced. */
  public long durableLsn() {
    return durableLsn;
  }

  /** Bytes appended that are not written to a file yet (kept there after a failed write-out too). */
  public synchronized long unwrittenBytes() {
    return buffer.length();
  }

  /**
   * Tests: writes everything buffered to the file without forcing it, as a writer's write-out of
   * a large buffer does.
   */
  void writeOutNow() {
    writeOut();
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
    synchronized (forceLock) {
      synchronized (this) {
        closed = true;
      }
      if (segment != null) {
        segment.close();
      }
      dirLock.close();
    }
  }

  /** Writes buffered records to the file (no force) when the buffer has grown large. */
  public void writeOutIfLarge() {
    boolean large;
    synchronized (this) {
      large = buffer.length() >= AppendBuffer.WRITE_OUT_THRESHOLD;
    }
    if (large) {
      writeOut();
    }
  }

  /** Makes every operation up to {@code lsn} durable; concurrent callers share one force. */
  public void sync(long lsn) {
    if (durableLsn >= lsn) {
      return;
    }
    synchronized (forceLock) {
      if (durableLsn >= lsn) {
        return;
      }
      forceLocked();
    }
  }

  /** Makes everything appended so far durable. */
  public void syncAll() {
    sync(lastLsn());
  }

  // Must hold forceLock. Writes out everything, forces it, lists a new segment, marks the force.
  @GuardedBy("forceLock")
  private void forceLocked() {
    if (forceFailure != null) {
      checkFailures();
    }
    long upTo = writeOut();
    long size;
    try {
      size = segment.size();
      forceCurrent();
    } catch (IOException e) {
      throw new StorageException(segmentPath, "cannot force the write-ahead log segment "
          + segmentPath + ": " + e, e);
    }
    try {
      segments.publishIfPending(segmentPath);
    } catch (IOException e) {
      noteWriteFailure(e);
      throw new StorageException(dir, "cannot write the catalogue of the write-ahead log in "
          + dir + ": " + e, e);
    }
    durableLsn = Math.max(durableLsn, upTo);
    if (writeFailure != null) {
      LOG.info("the write-ahead log in {} wrote and forced what it held since it failed ({});"
          + " it accepts writes again", dir, writeFailure.toString());
      writeFailure = null;
      writeFailureLogged = false;
    }
    writeMark(size);
  }

  // Must hold forceLock. A force mark after a force, written out at once (not forced): so a
  // process killed after the force leaves proof, in the file, that the bytes before were forced.
  @GuardedBy("forceLock")
  private void writeMark(long forcedEnd) {
    synchronized (this) {
      if (buffer.hasRolls() || closed) {
        return; // the roll seals the segment: its catalogue entry certifies all of it
      }
      buffer.appendMark(forcedEnd);
    }
    try {
      writeOut();
    } catch (RuntimeException e) {
      // The force succeeded; the bytes stay buffered and the failure is seen by later writes.
    }
  }

  // Takes writeLock. Returns the LSN written up to. The log's file steps are its writers' whatever
  // thread carries them out (a writer, or the flush thread forcing the log through its component):
  // a device model counts them as foreground work.
  private long writeOut() {
    synchronized (writeLock) {
      try {
        return IoClass.callAs(IoClass.FOREGROUND, this::writeOutLocked);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e); // writeOutLocked throws none: it wraps its own
      }
    }
  }

  // Must hold writeLock. Carries out the pending rolls if the caller holds forceLock too; without
  // forceLock, while a roll is pending or a failed write-out waits to be written again, it writes
  // out nothing (the next force does it all).
  private long writeOutLocked() {
    if (forceFailure != null) {
      checkFailures();
    }
    boolean mayRoll = Thread.holdsLock(forceLock);
    AppendBuffer.Batch batch;
    synchronized (this) {
      if ((buffer.hasRolls() || writeFailure != null) && !mayRoll) {
        return writtenLsn; // left for the next force, which carries out the roll first
      }
      if (buffer.isEmpty()) {
        long last = buffer.lastLsn();
        writtenLsn = last;
        return last;
      }
      batch = buffer.take();
    }
    byte[] data = batch.data();
    int len = batch.len();
    long upTo = batch.upTo();
    List<long[]> rolls = batch.rolls();
    ByteBuffer slice = null;
    int rollsDone = 0;
    try {
      int from = 0;
      for (long[] roll : rolls) {
        slice = ByteBuffer.wrap(data, from, (int) roll[0] - from);
        if (slice.hasRemaining()) {
          segment.write(slice);
        }
        from = (int) roll[0];
        carryOutRollHeld(roll[1]);
        rollsDone++;
      }
      slice = ByteBuffer.wrap(data, from, len - from);
      segment.write(slice);
    } catch (IOException e) {
      // Nothing appended is dropped: what was not written goes back in front of the buffer, and
      // the next force writes it again.
      int written = slice == null ? 0 : slice.position();
      synchronized (this) {
        buffer.retain(data, written, len, rolls.subList(rollsDone, rolls.size()));
      }
      if (forceFailure == null) {
        noteWriteFailure(e);
      }
      throw new StorageException(segmentPath, "cannot write the write-ahead log segment "
          + segmentPath + ": " + e + (forceFailure == null ? "; the log keeps the "
          + (len - written) + " bytes it could not write and writes them again at the next"
          + " force" : ""), e);
    }
    synchronized (this) {
      // Keep the written buffer for the next write-out unless one append made it huge.
      buffer.written(data);
    }
    writtenLsn = upTo;
    return upTo;
  }

  private void noteWriteFailure(IOException e) {
    if (writeFailure == null) {
      writeFailure = e;
    }
  }

  // Rolls leave the buffer only for a caller that holds forceLock (writeOutLocked's mayRoll), which
  // the compiler cannot follow: asserted here instead.
  @SuppressWarnings("GuardedBy")
  private void carryOutRollHeld(long nextFirstLsn) throws IOException {
    assert Thread.holdsLock(forceLock) : "rolls are carried out under forceLock";
    carryOutRoll(nextFirstLsn);
  }

  /**
   * Ends the current segment, written out up to {@code nextFirstLsn - 1}: forces it (whatever the
   * durability, see {@link #roll()}), lists it sealed at its size and closes it, then starts the
   * segment of {@code nextFirstLsn}. Only the last segment may end in a torn record (LogScan): the
   * old one is whole on disk before the new one exists. A creation that failed is tried again by
   * the next call. Must hold forceLock and writeLock.
   */
  @GuardedBy("forceLock")
  private void carryOutRoll(long nextFirstLsn) throws IOException {
    if (segment != null) {
      long size = segment.size();
      forceCurrent();
      // A segment rolled before its first force is listed first.
      segments.publishIfPending(segmentPath);
      durableLsn = Math.max(durableLsn, nextFirstLsn - 1);
      segments.sealLast(size);
      segment.close();
      segment = null;
    }
    startSegment(nextFirstLsn);
  }

  private void groupCommit() {
    if (forceFailure != null) {
      return; // the log is failed for good: writers get the error, logged once below
    }
    try {
      syncAll();
    } catch (RuntimeException e) {
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
    synchronized (this) {
      if (closed) {
        throw new StorageException("the write-ahead log is closed", null);
      }
      if (!buffer.markRoll()) {
        // Nothing appended since the segment appends go to started (or since the roll before):
        // a new segment would take its name, and an empty segment needs no successor.
        return;
      }
    }
    if (durability == Durability.NONE) {
      try {
        background.execute(this::rollInBackground);
      } catch (RejectedExecutionException e) {
        // Closing: close() carries out the pending rolls itself.
      }
    }
  }

  private void rollInBackground() {
    if (forceFailure != null) {
      return; // the log is failed for good: writers get the error
    }
    try {
      completeRolls();
    } catch (RuntimeException e) {
      LOG.error("rolling the write-ahead log in {} failed: {}; the log refuses writes until a"
          + " force succeeds", dir, e.getMessage());
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
    synchronized (forceLock) {
      synchronized (this) {
        if (!buffer.hasRolls()) {
          return;
        }
      }
      writeOut();
    }
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
    completeRolls();
    sync(lsn);
  }

  /**
   * Deletes segments all of whose operations have LSN at most {@code flushedLsn}: lists the log
   * without them in the catalogue first (with the current segment's forced size), then deletes
   * them, so a crash in between leaves segments the next open knows it may delete.
   */
  public void truncateUpTo(long flushedLsn) {
    synchronized (forceLock) {
      segments.truncateUpTo(flushedLsn, closed, segmentPath);
    }
  }

  /**
   * TRIAD-LOG: the sealed segment (not the one appends go to) that holds every sequence number
   * from {@code from} to {@code to}, or null if no single sealed segment does.
   */
  public Path sealedSegmentHolding(long from, long to) {
    synchronized (forceLock) {
      return segments.sealedSegmentHolding(from, to, segmentPath);
    }
  }

  /** Number of segment files, for tests and statistics. */
  public int segmentCount() {
    synchronized (forceLock) {
      return segments.count();
    }
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
    synchronized (forceLock) {
      synchronized (this) {
        if (closed) {
          return;
        }
        closed = true;
      }
      try {
        if (forceFailure == null) {
          writeOut();
          if (segment != null) { // null if the open failed before it, or a creation failed
            forceCurrent();
            segments.publishAll(segmentPath);
            durableLsn = writtenLsn;
          }
        }
      } catch (IOException | RuntimeException e) {
        long left;
        synchronized (this) {
          left = buffer.length();
        }
        LOG.error("cannot write the log tail at close of {}: {}{}", dir, e.toString(), left > 0
            ? "; " + left + " bytes of appended log records are not in the log, and the writes"
            + " they hold are lost unless a flush put them in disk components" : "");
      } finally {
        try {
          if (segment != null) {
            segment.close();
          }
        } catch (IOException e) {
          LOG.warn("cannot close the log segment: {}", e.toString());
        }
        LogOpening.closeQuietly(dirLock);
      }
    }
  }
}
