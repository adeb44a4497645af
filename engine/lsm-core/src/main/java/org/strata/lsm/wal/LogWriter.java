package org.strata.lsm.wal;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.StorageException;
import org.strata.lsm.events.LogForceEvent;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoClass;
import org.strata.lsm.io.WritableFile;

/**
 * The working part of a {@link WriteAheadLog}, which delegates to it: the append buffer, the
 * current segment it writes out ({@link LogWriteOut}) and forces (with the force marks), the rolls
 * it carries out, the segment states and catalogue ({@link LogSegments}), and what failed ({@link
 * LogFailures}).
 *
 * <p>Locks, in this order: {@code forceLock} (forces, rolls, truncation, catalogue writes and
 * close; the segment states), then {@code writeLock} (write-outs to the current segment), then
 * this writer's monitor (the append buffer, and setting {@code closed}).
 */
final class LogWriter {
  private static final Logger LOG = LogManager.getLogger(WriteAheadLog.class);

  private final Path dir;
  private final FileIo fileIo;
  private final UUID logId;
  private final Path owner;
  private final DirectoryLock dirLock;
  // Lock order: forceLock, then writeLock, then this.
  // Serializes forces, rolls, truncation, catalogue writes, close; guards the segment states.
  final Object forceLock = new Object();
  // Serializes write-outs to the current segment.
  final Object writeLock = new Object();
  // Segment states and catalogue (the current segment's entry changes under writeLock too).
  @GuardedBy("forceLock")
  private final LogSegments segments;

  // The records appended and not written out yet, with the rolls asked for (see roll()).
  @GuardedBy("this")
  final AppendBuffer buffer;
  // Set under this; read also under forceLock alone, hence volatile.
  private volatile boolean closed;
  /** Bytes of the records appended since open (read without the lock). */
  private final LongAdder appendedBytes = new LongAdder();

  // Changed under forceLock and writeLock; read under either.
  WritableFile segment;
  Path segmentPath;
  private volatile long durableLsn;
  // What failed: a write-out (retried by every force) or a force (for good).
  final LogFailures failures;
  // Writes the buffer out to the current segment, under writeLock.
  private final LogWriteOut out;

  /**
   * A log with no segment yet, whose appends follow {@code lastLsn}, holding {@code dirLock} on
   * its directory; {@link #startAfterRecovery} starts it.
   */
  LogWriter(Path dir, FileIo fileIo, long lastLsn, UUID logId, Path owner,
      DirectoryLock dirLock) {
    this.dir = dir;
    this.fileIo = fileIo;
    this.logId = logId;
    this.owner = owner;
    this.dirLock = dirLock;
    this.buffer = new AppendBuffer(this, lastLsn);
    this.segments = new LogSegments(forceLock, dir, fileIo, logId, owner);
    this.failures = new LogFailures(forceLock, dir);
    this.durableLsn = lastLsn;
    this.out = new LogWriteOut(this, lastLsn);
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

  /** See {@link WriteAheadLog#logId}. */
  UUID logId() {
    return logId;
  }

  /** See {@link WriteAheadLog#directory}. */
  Path directory() {
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
    LogForceEvent event = new LogForceEvent();
    event.begin();
    try {
      IoClass.callAs(IoClass.FOREGROUND, () -> {
        segment.force(); // the writers' force, whichever thread carries it out
        return null;
      });
    } catch (IOException e) {
      failures.forceFailed(e);
      throw e;
    }
    segments.forcedTo(size);
    if (event.shouldCommit()) {
      Path logDir = segmentPath.getParent();
      event.log = logDir == null || logDir.getFileName() == null ? String.valueOf(logDir)
          : logDir.getFileName().toString();
      event.segmentBytes = size;
      event.commit();
    }
  }

  /** See {@link WriteAheadLog#append}; {@code logged} false: sequence numbers only (unlogged). */
  long append(List<LogOp> ops, boolean logged) {
    if (failures.writeFailure() != null && failures.forceFailure() == null) {
      synchronized (forceLock) {
        if (failures.writeFailure() != null && failures.forceFailure() == null && !closed) {
          try {
            forceLocked();
          } catch (RuntimeException e) {
            // still failing: appendLocked refuses, naming the failure
          }
        }
      }
    }
    return appendLocked(ops, logged);
  }

  private synchronized long appendLocked(List<LogOp> ops, boolean logged) {
    if (closed) {
      throw new StorageException("the write-ahead log is closed", null);
    }
    failures.check(segmentPath);
    if (!logged) {
      return buffer.skip(ops.size());
    }
    int size = LogRecordCodec.encodedSize(ops);
    appendedBytes.add(size);
    return buffer.append(ops, size);
  }

  /** See {@link WriteAheadLog#appendedBytes}. */
  long appendedBytes() {
    return appendedBytes.sum();
  }

  /** See {@link WriteAheadLog#lastLsn}. */
  synchronized long lastLsn() {
    return buffer.lastLsn();
  }

  /** See {@link WriteAheadLog#durableLsn}. */
  long durableLsn() {
    return durableLsn;
  }

  /** See {@link WriteAheadLog#unwrittenBytes}. */
  synchronized long unwrittenBytes() {
    return buffer.length();
  }

  /**
   * Tests: writes everything buffered to the file without forcing it, as a writer's write-out of
   * a large buffer does.
   */
  void writeOutNow() {
    out.writeOut();
  }

  /**
   * Tests: lets go of the files as a process killed now would, writing nothing more: what was
   * written stays (in the operating system's cache), what was only buffered is lost, and nothing
   * is forced or listed. The log is unusable afterwards.
   */
  void closeAsIfKilled() throws IOException {
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

  /** See {@link WriteAheadLog#writeOutIfLarge}. */
  void writeOutIfLarge() {
    boolean large;
    synchronized (this) {
      large = buffer.length() >= AppendBuffer.WRITE_OUT_THRESHOLD;
    }
    if (large) {
      out.writeOut();
    }
  }

  /** See {@link WriteAheadLog#sync(long)}. */
  void sync(long lsn) {
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

  /** See {@link WriteAheadLog#syncAll}. */
  void syncAll() {
    sync(lastLsn());
  }

  // Must hold forceLock. Writes out everything, forces it, lists a new segment, marks the force.
  @GuardedBy("forceLock")
  private void forceLocked() {
    if (failures.forceFailure() != null) {
      failures.check(segmentPath);
    }
    long upTo = out.writeOut();
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
      failures.writeFailed(e);
      throw new StorageException(dir, "cannot write the catalogue of the write-ahead log in "
          + dir + ": " + e, e);
    }
    durableLsn = Math.max(durableLsn, upTo);
    failures.forced();
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
      out.writeOut();
    } catch (RuntimeException e) {
      // The force succeeded; the bytes stay buffered and the failure is seen by later writes.
    }
  }

  // Rolls leave the buffer only for a caller that holds forceLock (writeOutLocked's mayRoll), which
  // the compiler cannot follow: asserted here instead.
  @SuppressWarnings("GuardedBy")
  void carryOutRollHeld(long nextFirstLsn) throws IOException {
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

  /** Whether a force failed: the log is failed for good. */
  boolean failedForGood() {
    return failures.forceFailure() != null;
  }

  /** Logs the failure of a group commit (see {@link LogFailures#groupCommitFailed}). */
  void groupCommitFailed(RuntimeException e) {
    failures.groupCommitFailed(e);
  }

  /**
   * Marks a roll (see {@link WriteAheadLog#roll}); false if there was nothing to roll (nothing
   * appended since the segment appends go to started).
   */
  boolean roll() {
    synchronized (this) {
      if (closed) {
        throw new StorageException("the write-ahead log is closed", null);
      }
      if (!buffer.markRoll()) {
        // Nothing appended since the segment appends go to started (or since the roll before):
        // a new segment would take its name, and an empty segment needs no successor.
        return false;
      }
    }
    return true;
  }

  /** See {@link WriteAheadLog#completeRolls}. */
  void completeRolls() {
    synchronized (forceLock) {
      synchronized (this) {
        if (!buffer.hasRolls()) {
          return;
        }
      }
      out.writeOut();
    }
  }

  /** See {@link WriteAheadLog#holdThrough}. */
  void holdThrough(long lsn) {
    completeRolls();
    sync(lsn);
  }

  /** See {@link WriteAheadLog#truncateUpTo}. */
  void truncateUpTo(long flushedLsn) {
    synchronized (forceLock) {
      segments.truncateUpTo(flushedLsn, closed, segmentPath);
    }
  }

  /** See {@link WriteAheadLog#sealedSegmentHolding}. */
  Path sealedSegmentHolding(long from, long to) {
    synchronized (forceLock) {
      return segments.sealedSegmentHolding(from, to, segmentPath);
    }
  }

  /** See {@link WriteAheadLog#segmentCount}. */
  int segmentCount() {
    synchronized (forceLock) {
      return segments.count();
    }
  }

  /** See {@link WriteAheadLog#close()}. */
  void close() {
    synchronized (forceLock) {
      synchronized (this) {
        if (closed) {
          return;
        }
        closed = true;
      }
      try {
        if (failures.forceFailure() == null) {
          out.writeOut();
          if (segment != null) { // null if the open failed before it, or a creation failed
            forceCurrent();
            segments.publishAll(segmentPath);
            durableLsn = out.writtenLsn();
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
