package org.strata.lsm.wal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
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
import org.strata.lsm.io.FileIo;
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
 */
public final class WriteAheadLog implements Closeable {
  private static final Logger LOG = LogManager.getLogger(WriteAheadLog.class);
  private static final int WRITE_OUT_THRESHOLD = 1 << 20;

  private final Path dir;
  private final Durability durability;
  private final FileIo fileIo;
  // Lock order: forceLock, then writeLock, then this.
  // Serializes forces, rolls, truncation and close; guards which segment is current.
  private final Object forceLock = new Object();
  // Serializes write-outs to the current segment.
  private final Object writeLock = new Object();
  private final TreeMap<Long, Path> segments = new TreeMap<>();
  // The group commit under group; the carrier of rolls under none (see roll()); null under sync.
  private final ScheduledExecutorService background;

  // Guarded by this.
  private byte[] pending = new byte[64 * 1024];
  private int pendingLen;
  // The buffer appends switch to when pending is written out: the one written out last time,
  // free again (writes out are serialized by writeLock and finish before the next begins). Two
  // buffers in turn, so a write-out allocates nothing; null while one is being written.
  private byte[] spare = new byte[64 * 1024];
  private long lastAppendedLsn;
  // Segment rolls asked for and not yet carried out: {offset in pending, first LSN of the new
  // segment}, in order (see roll()).
  private final ArrayDeque<long[]> pendingRolls = new ArrayDeque<>();
  private boolean closed;
  /** Bytes of the records appended since open (read without the lock). */
  private final LongAdder appendedBytes = new LongAdder();

  // Changed under forceLock and writeLock; read under either.
  private WritableFile segment;
  private Path segmentPath;
  // Guarded by forceLock: a segment was created since the directory was last forced.
  private boolean directoryForcePending;
  private volatile long durableLsn;
  private volatile long writtenLsn;
  private volatile IOException failure;

  private WriteAheadLog(Path dir, Durability durability, FileIo fileIo, long lastLsn,
      long groupCommitMillis) {
    this.dir = dir;
    this.durability = durability;
    this.fileIo = fileIo;
    this.lastAppendedLsn = lastLsn;
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
   * starts a new segment for appends. What happens to a bad record is up to {@code mode}.
   *
   * @throws CorruptionException when {@code mode} refuses a bad record; nothing is changed then
   */
  public static WriteAheadLog open(Path dir, Durability durability, long groupCommitMillis,
      FileIo fileIo, LogRecoveryMode mode, long flushedLsn, LogReplayer replayer) {
    return open(dir, durability, groupCommitMillis, fileIo, mode, flushedLsn, flushedLsn,
        replayer);
  }

  /**
   * As {@link #open(Path, Durability, long, FileIo, LogRecoveryMode, long, LogReplayer)} for a log
   * shared by several indexes: operations above {@code replayFrom} are replayed (the replayer
   * filters per index), and new operations get sequence numbers above {@code lsnFloor} (the highest
   * sequence number any index has flushed), so no index ever sees a reused number.
   */
  public static WriteAheadLog open(Path dir, Durability durability, long groupCommitMillis,
      FileIo fileIo, LogRecoveryMode mode, long replayFrom, long lsnFloor,
      LogReplayer replayer) {
    return replay(dir, durability, groupCommitMillis, fileIo, mode, replayFrom, lsnFloor,
        replayer).open();
  }

  /**
   * The first half of {@link #open(Path, Durability, long, FileIo, LogRecoveryMode, long, long,
   * LogReplayer)}: scans the log and replays it, changing no file, not even creating {@code dir}.
   * {@link Replayed#open()} is the second half. The indexes of a dataset replay every partition's
   * log before any of them is opened, so a refusal of one leaves every log as it was.
   *
   * @throws CorruptionException when {@code mode} refuses a bad record; nothing is changed then
   */
  public static Replayed replay(Path dir, Durability durability, long groupCommitMillis,
      FileIo fileIo, LogRecoveryMode mode, long replayFrom, long lsnFloor,
      LogReplayer replayer) {
    try {
      LogRecovery.Replayed r = LogRecovery.replay(dir, fileIo, mode, replayFrom, replayer);
      return new Replayed(dir, durability, groupCommitMillis, fileIo, replayFrom, lsnFloor, r);
    } catch (IOException e) {
      throw new StorageException("cannot open write-ahead log in " + dir + ": " + e, e);
    }
  }

  /**
   * A log that has been replayed and not yet changed. {@link #open()} makes the changes the replay
   * decided on (cuts a torn tail, or under point-in-time sets aside what follows the first
   * corruption) and starts a new segment for appends; a {@code Replayed} that is never opened
   * holds nothing and needs no closing.
   */
  public static final class Replayed {
    private final Path dir;
    private final Durability durability;
    private final long groupCommitMillis;
    private final FileIo fileIo;
    private final long replayFrom;
    private final long lsnFloor;
    private final LogRecovery.Replayed replayed;

    private Replayed(Path dir, Durability durability, long groupCommitMillis, FileIo fileIo,
        long replayFrom, long lsnFloor, LogRecovery.Replayed replayed) {
      this.dir = dir;
      this.durability = durability;
      this.groupCommitMillis = groupCommitMillis;
      this.fileIo = fileIo;
      this.replayFrom = replayFrom;
      this.lsnFloor = lsnFloor;
      this.replayed = replayed;
    }

    /** Finishes the recovery on disk and opens the log for appends (once). */
    public WriteAheadLog open() {
      try {
        Files.createDirectories(dir);
        LogRecovery.Outcome r = LogRecovery.finish(replayed);
        long last = Math.max(Math.max(replayFrom, lsnFloor), r.lastLsn());
        WriteAheadLog wal = new WriteAheadLog(dir, durability, fileIo, last, groupCommitMillis);
        try {
          wal.segments.putAll(r.segments());
          synchronized (wal.forceLock) {
            synchronized (wal.writeLock) {
              wal.startSegment(last + 1);
            }
            wal.forceDirectoryIfPending();
          }
          if (r.cutAfterNewSegment() != null) {
            fileIo.truncate(r.cutAfterNewSegment(), r.cutOffset());
          }
        } catch (IOException | RuntimeException e) {
          wal.close();
          throw e;
        }
        return wal;
      } catch (IOException e) {
        throw new StorageException("cannot open write-ahead log in " + dir + ": " + e, e);
      }
    }
  }

  // Must hold forceLock and writeLock. The directory entry is forced later (forceDirectoryIfPending).
  private void startSegment(long firstLsn) throws IOException {
    Path p = dir.resolve(String.format(Locale.ROOT, "wal-%020d.log", firstLsn));
    segment = fileIo.create(p);
    segmentPath = p;
    directoryForcePending = true;
    segments.put(firstLsn, p);
  }

  // Must hold forceLock.
  private void forceDirectoryIfPending() throws IOException {
    if (directoryForcePending) {
      fileIo.forceDirectory(dir);
      directoryForcePending = false;
    }
  }

  /**
   * Appends one record holding {@code ops} and returns the LSN of its last operation. The record
   * is buffered; {@link #sync} or {@link #writeOutIfLarge} make it reach the file.
   */
  public synchronized long append(List<LogOp> ops) {
    if (closed) {
      throw new StorageException("the write-ahead log is closed", null);
    }
    int size = LogRecordCodec.encodedSize(ops);
    appendedBytes.add(size);
    if (pendingLen + size > pending.length) {
      pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLen + size));
    }
    long first = lastAppendedLsn + 1;
    pendingLen = LogRecordCodec.encode(ops, first, pending, pendingLen);
    lastAppendedLsn = first + ops.size() - 1;
    return lastAppendedLsn;
  }

  /** Bytes of the records appended since this log was opened (framing included). */
  public long appendedBytes() {
    return appendedBytes.sum();
  }

  /** Highest LSN appended so far. */
  public synchronized long lastLsn() {
    return lastAppendedLsn;
  }

  /** Highest LSN known to be forced. */
  public long durableLsn() {
    return durableLsn;
  }

  /** Writes buffered records to the file (no force) when the buffer has grown large. */
  public void writeOutIfLarge() {
    boolean large;
    synchronized (this) {
      large = pendingLen >= WRITE_OUT_THRESHOLD;
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
      long upTo = writeOut();
      try {
        forceDirectoryIfPending();
        segment.force();
      } catch (IOException e) {
        failure = e;
        throw new StorageException(segmentPath, "cannot force the write-ahead log segment "
            + segmentPath + ": " + e, e);
      }
      durableLsn = upTo;
    }
  }

  /** Makes everything appended so far durable. */
  public void syncAll() {
    sync(lastLsn());
  }

  // Takes writeLock. Returns the LSN written up to.
  private long writeOut() {
    synchronized (writeLock) {
      return writeOutLocked();
    }
  }

  // Must hold writeLock. Carries out the pending rolls if the caller holds forceLock too; without
  // forceLock, while a roll is pending, it writes out nothing (the next force does it all).
  private long writeOutLocked() {
    if (failure != null) {
      throw new StorageException(segmentPath, "the write-ahead log failed earlier, writing "
          + segmentPath + ": " + failure + "; it accepts no more writes until the store is"
          + " reopened", failure);
    }
    boolean mayRoll = Thread.holdsLock(forceLock);
    byte[] data;
    int len;
    long upTo;
    List<long[]> rolls;
    synchronized (this) {
      if (!pendingRolls.isEmpty() && !mayRoll) {
        return writtenLsn; // left for the next force, which carries out the roll first
      }
      if (pendingLen == 0 && pendingRolls.isEmpty()) {
        writtenLsn = lastAppendedLsn;
        return lastAppendedLsn;
      }
      data = pending;
      len = pendingLen;
      upTo = lastAppendedLsn;
      rolls = new ArrayList<>(pendingRolls);
      pendingRolls.clear();
      pending = spare;
      spare = null;
      pendingLen = 0;
    }
    try {
      int from = 0;
      for (long[] roll : rolls) {
        segment.write(ByteBuffer.wrap(data, from, (int) roll[0] - from));
        from = (int) roll[0];
        carryOutRoll(roll[1]);
      }
      segment.write(ByteBuffer.wrap(data, from, len - from));
    } catch (IOException e) {
      failure = e;
      throw new StorageException(segmentPath, "cannot write the write-ahead log segment "
          + segmentPath + ": " + e, e);
    } finally {
      synchronized (this) {
        // Keep the written buffer for the next write-out unless one append made it huge.
        spare = data.length <= 4 * WRITE_OUT_THRESHOLD ? data : new byte[64 * 1024];
      }
    }
    writtenLsn = upTo;
    return upTo;
  }

  /**
   * Ends the current segment, written out up to {@code nextFirstLsn - 1}: forces it (whatever the
   * durability, see {@link #roll()}), closes it and starts the segment of {@code nextFirstLsn}.
   * Only the last segment may end in a torn record (LogScan): the old one is whole on disk before
   * the new one exists. Must hold forceLock and writeLock.
   */
  private void carryOutRoll(long nextFirstLsn) throws IOException {
    forceDirectoryIfPending();
    segment.force();
    durableLsn = Math.max(durableLsn, nextFirstLsn - 1);
    segment.close();
    startSegment(nextFirstLsn);
  }

  private void groupCommit() {
    if (failure != null) {
      return; // the log is failed for good: writers get the error, logged once below
    }
    try {
      syncAll();
    } catch (RuntimeException e) {
      LOG.error("group commit of the write-ahead log in {} failed; the log accepts no more"
          + " writes", dir, e);
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
      long[] last = pendingRolls.peekLast();
      if (last != null && last[1] == lastAppendedLsn + 1) {
        return; // nothing appended since the roll before: that one starts the same segment
      }
      pendingRolls.add(new long[] {pendingLen, lastAppendedLsn + 1});
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
    if (failure != null) {
      return; // the log is failed for good: writers get the error
    }
    try {
      completeRolls();
    } catch (RuntimeException e) {
      LOG.error("rolling the write-ahead log in {} failed; the log accepts no more writes", dir,
          e);
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
        if (pendingRolls.isEmpty()) {
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

  /** Deletes segments all of whose operations have LSN at most {@code flushedLsn}. */
  public void truncateUpTo(long flushedLsn) {
    synchronized (forceLock) {
      List<Long> firsts = new ArrayList<>(segments.keySet());
      for (int i = 0; i + 1 < firsts.size(); i++) {
        if (firsts.get(i + 1) - 1 <= flushedLsn) {
          Path p = segments.remove(firsts.get(i));
          try {
            fileIo.delete(p);
          } catch (IOException e) {
            LOG.warn("cannot delete log segment {}: {}", p, e.toString());
          }
        } else {
          break;
        }
      }
    }
  }

  /**
   * TRIAD-LOG: the sealed segment (not the one appends go to) that holds every sequence number
   * from {@code from} to {@code to}, or null if no single sealed segment does.
   */
  public Path sealedSegmentHolding(long from, long to) {
    synchronized (forceLock) {
      Map.Entry<Long, Path> a = segments.floorEntry(from);
      Map.Entry<Long, Path> b = segments.floorEntry(to);
      Long next = segments.higherKey(to);
      if (a == null || b == null || !a.getKey().equals(b.getKey()) || next == null
          || a.getValue().equals(segmentPath)) {
        return null;
      }
      return a.getValue();
    }
  }

  /** Number of segment files, for tests and statistics. */
  public int segmentCount() {
    synchronized (forceLock) {
      return segments.size();
    }
  }

  /** Writes and forces what is buffered, then closes the current segment. */
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
      if (segment == null) {
        return; // the open failed before the first segment existed
      }
      try {
        if (failure == null) {
          writeOut();
          forceDirectoryIfPending();
          segment.force();
          durableLsn = writtenLsn;
        }
      } catch (IOException | RuntimeException e) {
        LOG.error("cannot write the log tail at close", e);
      } finally {
        try {
          segment.close();
        } catch (IOException e) {
          LOG.warn("cannot close the log segment: {}", e.toString());
        }
      }
    }
  }
}
