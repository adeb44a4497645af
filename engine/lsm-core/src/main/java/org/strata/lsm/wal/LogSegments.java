package org.strata.lsm.wal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoClass;

/**
 * The live segments of a {@link WriteAheadLog} as its catalogue ({@link LogCatalog}) lists them:
 * each segment's file, format and size (exact when sealed, else forced to), whether the current
 * segment is listed yet (it is listed at its first force, which also makes its directory entry
 * durable), the point-in-time recovery the catalogue must record, and the catalogue writes and
 * truncation that change them.
 *
 * <p>Guarded by the log's {@code forceLock}: the log holds this object in a field guarded by it,
 * and every method here asserts that the caller holds it (the current segment's entry changes
 * under the log's {@code writeLock} too, which a caller that rolls also holds).
 */
final class LogSegments {
  private static final Logger LOG = LogManager.getLogger(WriteAheadLog.class);

  private final Object forceLock;
  private final Path dir;
  private final FileIo fileIo;
  private final UUID logId;
  private final Path owner;
  private final TreeMap<Long, SegmentState> segments = new TreeMap<>();
  // A point-in-time recovery the catalogue must record, or null.
  private LogCatalog.SetAside setAside;
  // The current segment is not in the catalogue yet.
  private boolean publishPending;

  /** One segment of the log: its file, format, and size (exact when sealed, else forced to). */
  private static final class SegmentState {
    final Path file;
    final int format;
    long size;
    boolean sealed;

    SegmentState(Path file, int format, long size, boolean sealed) {
      this.file = file;
      this.format = format;
      this.size = size;
      this.sealed = sealed;
    }
  }

  /** No segments yet; the catalogue of log {@code logId} of {@code owner} is written in dir. */
  LogSegments(Object forceLock, Path dir, FileIo fileIo, UUID logId, Path owner) {
    this.forceLock = forceLock;
    this.dir = dir;
    this.fileIo = fileIo;
    this.logId = logId;
    this.owner = owner;
  }

  private boolean held() {
    return Thread.holdsLock(forceLock);
  }

  /** Adds a segment recovery kept: sealed at {@code size}. */
  void addSealed(long first, Path file, int format, long size) {
    assert held() : "the log's segments are guarded by its forceLock";
    segments.put(first, new SegmentState(file, format, size, true));
  }

  /** Adds the segment just created for appends, not listed until its first force. */
  void started(long first, Path file) {
    assert held() : "the log's segments are guarded by its forceLock";
    segments.put(first, new SegmentState(file, SegmentHeader.VERSION, 0, false));
    publishPending = true;
  }

  /** Notes that the current (last) segment is forced to {@code size}. */
  void forcedTo(long size) {
    assert held() : "the log's segments are guarded by its forceLock";
    segments.lastEntry().getValue().size = size;
  }

  /** Seals the current (last) segment at {@code size}. */
  void sealLast(long size) {
    assert held() : "the log's segments are guarded by its forceLock";
    SegmentState st = segments.lastEntry().getValue();
    st.size = size;
    st.sealed = true;
  }

  /** Records (or, with null, clears) a point-in-time recovery in the catalogue's next write. */
  void setAside(LogCatalog.SetAside recovery) {
    assert held() : "the log's segments are guarded by its forceLock";
    setAside = recovery;
  }

  /** Lists the current segment, {@code current}, in the catalogue if it is not listed yet. */
  void publishIfPending(Path current) throws IOException {
    assert held() : "the log's segments are guarded by its forceLock";
    if (publishPending) {
      publishPending = false;
      try {
        publish(current);
      } catch (IOException | RuntimeException e) {
        publishPending = true;
        throw e;
      }
    }
  }

  /** Lists every segment, the current one ({@code current}) included, at close. */
  void publishAll(Path current) throws IOException {
    assert held() : "the log's segments are guarded by its forceLock";
    publishPending = false;
    publish(current);
  }

  /**
   * Writes the catalogue: every segment, the current one ({@code current}) unless it is not
   * forced yet since its creation.
   */
  void publish(Path current) throws IOException {
    assert held() : "the log's segments are guarded by its forceLock";
    List<LogCatalog.Entry> entries = new ArrayList<>();
    for (Map.Entry<Long, SegmentState> e : segments.entrySet()) {
      SegmentState st = e.getValue();
      if (!st.sealed && publishPending && st.file.equals(current)) {
        continue;
      }
      entries.add(new LogCatalog.Entry(e.getKey(), st.size, st.sealed, st.format));
    }
    LogCatalog.SetAside recorded = setAside;
    IoClass.callAs(IoClass.FOREGROUND, () -> {
      new LogCatalog(logId, owner, entries, recorded).write(dir, fileIo);
      return null;
    });
  }

  /**
   * Deletes the sealed segments all of whose operations have LSN at most {@code flushedLsn}
   * (none if {@code closed}): lists the log without them first, then deletes them. A catalogue
   * that cannot be written keeps them listed, for a later truncation.
   */
  void truncateUpTo(long flushedLsn, boolean closed, Path current) {
    assert held() : "the log's segments are guarded by its forceLock";
    List<Long> firsts = new ArrayList<>(segments.keySet());
    List<Long> drop = new ArrayList<>();
    for (int i = 0; i + 1 < firsts.size(); i++) {
      if (firsts.get(i + 1) - 1 <= flushedLsn && segments.get(firsts.get(i)).sealed) {
        drop.add(firsts.get(i));
      } else {
        break;
      }
    }
    if (drop.isEmpty() || closed) {
      return;
    }
    List<SegmentState> dropped = new ArrayList<>();
    for (Long f : drop) {
      dropped.add(segments.remove(f));
    }
    try {
      publish(current);
    } catch (IOException e) {
      for (int i = 0; i < drop.size(); i++) {
        segments.put(drop.get(i), dropped.get(i)); // listed still: deleted at a later truncation
      }
      LOG.warn("cannot write the catalogue of the log in {} ({}); its flushed segments are kept"
          + " until a later truncation", dir, e.toString());
      return;
    }
    for (SegmentState st : dropped) {
      try {
        fileIo.delete(st.file);
      } catch (IOException e) {
        LOG.warn("cannot delete log segment {}: {}", st.file, e.toString());
      }
    }
  }

  /**
   * The sealed segment (not {@code current}, the one appends go to) that holds every sequence
   * number from {@code from} to {@code to}, or null if no single sealed segment does.
   */
  Path sealedSegmentHolding(long from, long to, Path current) {
    assert held() : "the log's segments are guarded by its forceLock";
    Map.Entry<Long, SegmentState> a = segments.floorEntry(from);
    Map.Entry<Long, SegmentState> b = segments.floorEntry(to);
    Long next = segments.higherKey(to);
    if (a == null || b == null || !a.getKey().equals(b.getKey()) || next == null
        || a.getValue().file.equals(current)) {
      return null;
    }
    return a.getValue().file;
  }

  /** Number of segments. */
  int count() {
    assert held() : "the log's segments are guarded by its forceLock";
    return segments.size();
  }
}
