package org.strata.lsm.wal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.WritableFile;
import org.strata.lsm.wal.LogScan.Damage;
import org.strata.lsm.wal.LogScan.DamageKind;
import org.strata.lsm.wal.LogScan.Segment;

/**
 * Recovery of a write-ahead log under a {@link LogRecoveryMode}: scans every segment ({@link
 * LogScan}), decides from the bad ranges found whether to refuse and replays what the mode allows
 * ({@link #replay}, which changes no file); only then, in a second step ({@link #finish}), changes
 * files: cuts a torn tail, or (point-in-time) moves everything after the first corruption aside. A
 * refusal changes nothing on disk.
 */
final class LogRecovery {
  private static final Logger LOG = LogManager.getLogger(LogRecovery.class);

  /**
   * What a scan and replay found, before any file is changed.
   *
   * @param scan the segments read
   * @param torn a torn tail to cut off, or null
   * @param stop point-in-time: the first corruption, where replay stopped and from which the log
   *     is set aside, or null
   */
  record Replayed(LogScan scan, Damage torn, Damage stop) {}

  /**
   * What {@link #finish} leaves for {@link WriteAheadLog} to complete.
   *
   * @param segments the segment files still in the log, by first sequence number
   * @param lastLsn highest sequence number any record in the log or set aside carries: new writes
   *     must start above it
   * @param cutAfterNewSegment a segment to truncate at {@code cutOffset} once the new segment
   *     exists (point-in-time), or null
   */
  record Outcome(TreeMap<Long, Path> segments, long lastLsn, Path cutAfterNewSegment,
      long cutOffset) {}

  private LogRecovery() {}

  /**
   * Scans the log, refuses it if {@code mode} says so, and replays what the mode allows. Changes
   * no file: a refusal here, or a later one by the caller, leaves the log as it was.
   */
  static Replayed replay(Path dir, FileIo io, LogRecoveryMode mode, long replayFrom,
      LogReplayer replayer) throws IOException {
    LogScan scan = LogScan.read(dir, replayFrom, io);
    for (Path p : scan.unexpected()) {
      LOG.warn("ignoring unexpected file {} in the log directory", p);
    }
    Damage firstLoss = null; // the first range that may hold operations not in disk components
    Damage torn = null;
    for (Damage d : scan.damages()) {
      if (mode == LogRecoveryMode.ABSOLUTE_CONSISTENCY) {
        throw refusal(d, mode, scan.damages().size());
      }
      switch (d.kind()) {
        case FLUSHED -> LOG.warn("log {}; passing over it", d.describe());
        case TORN_TAIL -> torn = d;
        case CORRUPTION -> {
          if (firstLoss == null) {
            firstLoss = d;
          }
        }
        default -> throw new IllegalStateException();
      }
    }
    Damage stop = null; // point-in-time: where replay stops
    if (firstLoss != null) {
      switch (mode) {
        case TOLERATE_TORN_TAIL -> throw refusal(firstLoss, mode, scan.damages().size());
        case POINT_IN_TIME -> stop = firstLoss;
        case SKIP_CORRUPTED -> {
          for (Damage d : scan.damages()) {
            if (d.kind() == DamageKind.CORRUPTION) {
              LOG.error("log recovery (skip-corrupted) skips {}", d.describe());
            }
          }
        }
        default -> throw new IllegalStateException();
      }
    }
    List<Segment> segs = scan.segments();
    if (stop == null) {
      scan.replay(segs.size(), 0, replayFrom, replayer);
    } else {
      scan.replay(stop.segment(), stop.offset(), replayFrom, replayer);
    }
    return new Replayed(scan, stop == null ? torn : null, stop);
  }

  /**
   * Makes the changes a replay decided on, once the open goes ahead: cuts a torn tail, or
   * (point-in-time) sets aside everything after the first corruption.
   */
  static Outcome finish(Replayed r) throws IOException {
    LogScan scan = r.scan();
    TreeMap<Long, Path> kept = new TreeMap<>();
    for (Segment s : scan.segments()) {
      kept.put(s.firstLsn(), s.file());
    }
    // Set-aside records keep their sequence numbers: new writes start above all of them.
    long last = scan.lastLsn();
    Damage stop = r.stop();
    if (stop != null) {
      setAside(scan, stop, kept);
      return new Outcome(kept, last, stop.file(), stop.offset());
    }
    Damage torn = r.torn();
    if (torn != null) {
      LOG.warn("log segment {} ends with {} bytes of a torn record at offset {}; truncating{}",
          torn.file().getFileName(), torn.length(), torn.offset(), torn.lengthFits()
          ? " (its length fits the file: unless the machine crashed, the last record was corrupt"
          + " and its operations are lost; absolute-consistency would have refused)" : "");
      scan.io().truncate(torn.file(), torn.offset());
    }
    return new Outcome(kept, last, null, 0);
  }

  /**
   * Point-in-time: copies the bytes from the first corruption to the end of its segment into
   * {@code <segment>.corrupt-<offset>} and renames every later segment to {@code
   * <segment>.corrupt-0}, each forced, so a person can still recover them. The corrupt segment is
   * truncated later, after the new segment exists ({@link Outcome#cutAfterNewSegment}), so that a
   * crash in between can never let a later open hand out a sequence number a set-aside record
   * carries: the new segment's name keeps them reserved.
   */
  private static void setAside(LogScan scan, Damage stop, TreeMap<Long, Path> kept)
      throws IOException {
    List<String> moved = new ArrayList<>();
    Segment first = scan.segments().get(stop.segment());
    Path tail = unique(first.file(), stop.offset());
    FileIo io = scan.io();
    byte[] bytes = io.readAll(first.file());
    try (WritableFile out = io.create(tail)) {
      out.write(ByteBuffer.wrap(bytes, stop.offset(), bytes.length - stop.offset()));
      out.force();
    }
    moved.add(tail.getFileName() + " (bytes " + stop.offset() + " to " + first.length() + " of "
        + first.file().getFileName() + ")");
    for (int i = stop.segment() + 1; i < scan.segments().size(); i++) {
      Segment later = scan.segments().get(i);
      Path to = unique(later.file(), 0);
      io.rename(later.file(), to);
      kept.remove(later.firstLsn());
      moved.add(to.getFileName().toString());
    }
    io.forceDirectory(scan.directory());
    LOG.error("log recovery (point-in-time) stopped at {}; not replayed and set aside in {}: {}"
        + " intact records ({} operations) in {}", stop.describe(), scan.directory(),
        stop.recordsAfter(), stop.operationsAfter(), String.join(", ", moved));
  }

  private static Path unique(Path segment, long offset) {
    Path p = segment.resolveSibling(segment.getFileName() + LogScan.SET_ASIDE + offset);
    for (int n = 1; Files.exists(p); n++) {
      p = segment.resolveSibling(segment.getFileName() + LogScan.SET_ASIDE + offset + "." + n);
    }
    return p;
  }

  private static CorruptionException refusal(Damage d, LogRecoveryMode mode, int damages) {
    String more = damages > 1 ? " (" + damages + " bad ranges in the log in all)" : "";
    String what;
    if (d.kind() == DamageKind.CORRUPTION) {
      what = "a log record fails its checksum or framing (" + d.length() + " bad bytes) and "
          + d.recordsAfter() + " intact records (" + d.operationsAfter() + " operations) follow it"
          + " to the end of the log" + (d.laterSegments() > 0 ? ", in this segment and "
          + d.laterSegments() + " later segment(s)" : "") + more + "; they may hold acknowledged"
          + " writes, so the store is not opened (log.recovery-mode " + mode.configName() + ")."
          + " To open it anyway set log.recovery-mode to skip-corrupted (replays every intact"
          + " record; loses only the operations of the bad bytes) or point-in-time (replays up to"
          + " this offset and moves the rest of the log aside into *.corrupt-* files); see"
          + " docs/format.md";
    } else {
      what = (d.kind() == DamageKind.TORN_TAIL
          ? "the last log segment ends with a torn record (" + d.length() + " bytes)"
          : d.length() + " bad bytes whose operations are all in disk components already") + more
          + ", and log.recovery-mode absolute-consistency refuses any bad record (a process killed"
          + " in the middle of a write leaves a torn tail). To open it set log.recovery-mode to"
          + " tolerate-torn-tail, which cuts a torn tail off; see docs/format.md";
    }
    return new CorruptionException(d.file(), d.offset(), what);
  }
}
