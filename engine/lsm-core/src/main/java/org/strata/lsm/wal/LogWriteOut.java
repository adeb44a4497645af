package org.strata.lsm.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.IoClass;

/**
 * The write-out of a {@link LogWriter}'s append buffer to its current segment: takes what is
 * buffered, writes it, carrying out the rolls between the records when the caller holds the log's
 * {@code forceLock}, and on a failure puts back in front of the buffer what it could not write, so
 * that the next force writes it again.
 *
 * <p>Runs under the log's {@code writeLock}, which {@link #writeOut()} takes; the append buffer is
 * guarded by the writer's monitor, taken here around each access to it; the rolls need {@code
 * forceLock}, asserted where they are carried out ({@code LogWriter.carryOutRollHeld}).
 */
final class LogWriteOut {
  private final LogWriter log;
  // The LSN the write-outs reached (changed under writeLock).
  private volatile long writtenLsn;

  /** The write-out of {@code log}, whose appends follow {@code lastLsn}. */
  LogWriteOut(LogWriter log, long lastLsn) {
    this.log = log;
    this.writtenLsn = lastLsn;
  }

  /** The sequence number written out up to. */
  long writtenLsn() {
    return writtenLsn;
  }

  // Takes writeLock. Returns the LSN written up to. The log's file steps are its writers' whatever
  // thread carries them out (a writer, or the flush thread forcing the log through its component):
  // a device model counts them as foreground work.
  long writeOut() {
    synchronized (log.writeLock) {
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
    if (log.failures.forceFailure() != null) {
      log.failures.check(log.segmentPath);
    }
    boolean mayRoll = Thread.holdsLock(log.forceLock);
    AppendBuffer.Batch batch;
    synchronized (log) {
      if ((log.buffer.hasRolls() || log.failures.writeFailure() != null) && !mayRoll) {
        return writtenLsn; // left for the next force, which carries out the roll first
      }
      if (log.buffer.isEmpty()) {
        long last = log.buffer.lastLsn();
        writtenLsn = last;
        return last;
      }
      batch = log.buffer.take();
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
          log.segment.write(slice);
        }
        from = (int) roll[0];
        log.carryOutRollHeld(roll[1]);
        rollsDone++;
      }
      slice = ByteBuffer.wrap(data, from, len - from);
      log.segment.write(slice);
    } catch (IOException e) {
      // Nothing appended is dropped: what was not written goes back in front of the buffer, and
      // the next force writes it again.
      int written = slice == null ? 0 : slice.position();
      synchronized (log) {
        log.buffer.retain(data, written, len, rolls.subList(rollsDone, rolls.size()));
      }
      if (log.failures.forceFailure() == null) {
        log.failures.writeFailed(e);
      }
      throw new StorageException(log.segmentPath, "cannot write the write-ahead log segment "
          + log.segmentPath + ": " + e + (log.failures.forceFailure() == null
          ? "; the log keeps the " + (len - written) + " bytes it could not write and writes"
          + " them again at the next force" : ""), e);
    }
    synchronized (log) {
      // Keep the written buffer for the next write-out unless one append made it huge.
      log.buffer.written(data);
    }
    writtenLsn = upTo;
    return upTo;
  }
}
