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
 * Recovery of a write-ahead log under a {@link LogRecoveryMode}: scans the log ({@link LogScan}),
 * decides from what is wrong with it whether to refuse and replays what the mode allows ({@link
 * #replay}, which changes no file); only then, in a second step ({@link #finish}), changes files:
 * deletes segments truncation had dropped, cuts a torn tail, or (point-in-time) sets aside
 * everything after the first loss. A refusal changes nothing on disk. A log that belongs to
 * another store or partition is refused in every mode.
 */
final class LogRecovery {
  private static final Logger LOG = LogManager.getLogger(LogRecovery.class);

  /**
   * What a scan and replay found, before any file is changed.
   *
   * @param scan the log read
   * @param torn a torn tail to cut off, or null
   * @param stop point-in-time: the first loss, where replay stopped and from which the log is set
   *     aside, or null
   */
  record Replayed(LogScan scan, Damage torn, Damage stop) {}

  /**
   * What {@link #finish} leaves for {@link WriteAheadLog} to complete.
   *
   * @param segments the segments still in the log, by first sequence number, each with its size
   *     and format
   * @param lastLsn highest sequence number any record in the log or set aside carries: new writes
   *     must start above it
   * @param setAside point-in-time: what is being set aside (the catalogue records it until {@link
   *     #completeSetAside} has run), or null
   * @param later point-in-time: the segments after the stop, to rename aside
   */
  record Outcome(TreeMap<Long, Kept> segments, long lastLsn, LogCatalog.SetAside setAside,
      Path cutFile, List<Path> later) {}

  /** A segment that stays in the log: its file, its size once recovery is done, its format. */
  record Kept(Path file, long size, int format) {}

  private LogRecovery() {}

  /**
   * Scans the log, refuses it if {@code mode} says so, and replays what the mode allows. Changes
   * no file: a refusal here, or a later one by the caller, leaves the log as it was.
   */
  static Replayed replay(Path dir, FileIo io, LogRecoveryMode mode, long replayFrom,
      LogOwner owner, LogReplayer replayer) throws IOException {
    LogScan scan = LogScan.read(dir, replayFrom, io, owner);
    for (Path p : scan.unexpected()) {
      LOG.warn("ignoring unexpected file {} in the log directory", p);
    }
    if (scan.logFault() != null) {
      if (scan.logFaultKind() == LogScan.LogFaultKind.FOREIGN
          || mode == LogRecoveryMode.ABSOLUTE_CONSISTENCY
          || mode == LogRecoveryMode.TOLERATE_TORN_TAIL) {
        throw new CorruptionException(dir.resolve(LogCatalog.FILE), -1, scan.logFault()
            + "; nothing was opened or changed" + (scan.logFaultKind()
            == LogScan.LogFaultKind.FOREIGN ? "" : ". To open the store anyway, losing what the"
            + " log held that is not in disk components, set log.recovery-mode to"
            + " skip-corrupted or point-in-time; see docs/format.md"));
      }
      LOG.error("log recovery ({}) goes on: {}; it replays the segments whose headers name this"
          + " log", mode.configName(), scan.logFault());
    }
    Damage firstLoss = null; // the first damage that may hold operations not in disk components
    Damage torn = null;
    for (Damage d : scan.damages()) {
      if (mode == LogRecoveryMode.ABSOLUTE_CONSISTENCY) {
        throw refusal(d, mode, scan.damages().size());
      }
      switch (d.kind()) {
        case FLUSHED -> LOG.warn("log {}; passing over it", d.describe());
        case TORN_TAIL -> torn = d;
        default -> {
          if (firstLoss == null) {
            firstLoss = d;
          }
        }
      }
    }
    Damage stop = null; // point-in-time: where replay stops
    if (firstLoss != null) {
      switch (mode) {
        case TOLERATE_TORN_TAIL -> throw refusal(firstLoss, mode, scan.damages().size());
        case POINT_IN_TIME -> stop = firstLoss;
        case SKIP_CORRUPTED -> {
          for (Damage d : scan.damages()) {
            if (d.losesOperations()) {
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
   * Makes the first changes a replay decided on, once the open goes ahead: deletes the segments
   * truncation had dropped, finishes a point-in-time recovery a crash interrupted, cuts a torn
   * tail, or (point-in-time) copies the bytes after the stop aside. The caller then creates the
   * new segment and writes the catalogue, and only then calls {@link #completeSetAside}.
   */
  static Outcome finish(Replayed r) throws IOException {
    LogScan scan = r.scan();
    FileIo io = scan.io();
    for (Path p : scan.leftovers()) {
      LOG.info("deleting log segment {}, whose operations are all flushed (a crash came between"
          + " dropping it from the log's catalogue and deleting it)", p.getFileName());
      io.delete(p);
    }
    for (Path p : scan.pendingSetAside()) {
      Path to = unique(p, 0);
      LOG.warn("finishing an interrupted point-in-time recovery: setting {} aside as {}",
          p.getFileName(), to.getFileName());
      io.rename(p, to);
    }
    Damage cut = scan.pendingCut();
    if (cut != null) {
      LOG.warn("finishing an interrupted point-in-time recovery: cutting {} at offset {} (the"
          + " bytes after it were set aside)", cut.file().getFileName(), cut.offset());
      io.truncate(cut.file(), cut.offset());
    }
    if (!scan.pendingSetAside().isEmpty() || cut != null) {
      io.forceDirectory(scan.directory());
    }
    TreeMap<Long, Kept> kept = new TreeMap<>();
    for (Segment s : scan.segments()) {
      long size = cut != null && s.file().equals(cut.file()) ? cut.offset() : s.length();
      kept.put(s.firstLsn(), new Kept(s.file(), size, s.format()));
    }
    // Set-aside records keep their sequence numbers: new writes start above all of them. The new
    // segment never takes the name of one that exists (an empty one): it is listed, and a crash
    // while a file of its name is recreated would leave it listed and empty.
    long last = scan.lastLsn();
    for (Segment s : scan.segments()) {
      last = Math.max(last, s.firstLsn());
    }
    Damage stop = r.stop();
    if (stop != null) {
      return setAside(scan, stop, kept, last);
    }
    Damage torn = r.torn();
    if (torn != null) {
      LOG.warn("log segment {} ends with {} bytes of a torn record at offset {}; truncating{}",
          torn.file().getFileName(), torn.length(), torn.offset(), torn.lengthFits()
          ? " (its length fits the file: unless the machine crashed, the last record was corrupt"
          + " and its operations are lost; absolute-consistency would have refused)" : "");
      io.truncate(torn.file(), torn.offset());
      Kept k = kept.get(scan.segments().get(torn.segment()).firstLsn());
      kept.put(scan.segments().get(torn.segment()).firstLsn(),
          new Kept(k.file(), torn.offset(), k.format()));
    }
    return new Outcome(kept, last, null, null, List.of());
  }

  /**
   * Point-in-time, first half: copies the bytes from the stop to the end of its segment into
   * {@code <segment>.corrupt-<offset>}, forced (or, for a stop at a segment's first record, leaves
   * the whole segment to be renamed). The segments after it, and the bytes after the stop, leave
   * the log in {@link #completeSetAside}, after the catalogue records the set-aside: so a crash at
   * any step leaves a log the next open can finish, and never one that hands out a sequence number
   * a set-aside record carries (the new segment, created before, is named above all of them).
   */
  private static Outcome setAside(LogScan scan, Damage stop, TreeMap<Long, Kept> kept,
      long last) throws IOException {
    List<Segment> segs = scan.segments();
    FileIo io = scan.io();
    List<Path> later = new ArrayList<>();
    Path cutFile = null;
    LogCatalog.SetAside record = null;
    int from = stop.segment();
    if (from < segs.size()) {
      Segment first = segs.get(from);
      if (stop.offset() <= first.dataStart()) {
        later.add(first.file()); // the whole segment goes
      } else {
        byte[] bytes = io.readAll(first.file());
        if (stop.offset() < bytes.length) {
          Path tail = unique(first.file(), stop.offset());
          try (WritableFile out = io.create(tail)) {
            out.write(ByteBuffer.wrap(bytes, stop.offset(), bytes.length - stop.offset()));
            out.force();
          }
          io.forceDirectory(scan.directory());
          cutFile = first.file();
          LOG.error("log recovery (point-in-time) copied bytes {} to {} of {} aside into {}",
              stop.offset(), bytes.length, first.file().getFileName(), tail.getFileName());
        }
        kept.put(first.firstLsn(), new Kept(first.file(), stop.offset(), first.format()));
        record = new LogCatalog.SetAside(first.firstLsn(), stop.offset());
      }
      for (int i = from + 1; i < segs.size(); i++) {
        later.add(segs.get(i).file());
      }
      for (int i = from; i < segs.size(); i++) {
        if (later.contains(segs.get(i).file())) {
          kept.remove(segs.get(i).firstLsn());
          // Not even an empty set-aside segment's name may be taken by the new segment.
          last = Math.max(last, segs.get(i).firstLsn());
        }
      }
      if (record == null && !later.isEmpty()) {
        // Whole segments only: every segment above the one before the stop that the catalogue
        // does not list is being set aside.
        record = new LogCatalog.SetAside(segs.get(from).firstLsn() - 1, 0);
      }
    }
    LOG.error("log recovery (point-in-time) stopped at {}; not replayed and set aside in {}: {}"
        + " intact records ({} operations){}", stop.describe(), scan.directory(),
        stop.recordsAfter(), stop.operationsAfter(), later.isEmpty() ? "" : ", segments "
        + later.stream().map(p -> p.getFileName().toString()).toList());
    return new Outcome(kept, last, record, cutFile, later);
  }

  /**
   * Point-in-time, second half, once the new segment exists and the catalogue records the
   * set-aside: renames the later segments to {@code <segment>.corrupt-0} and cuts the stopped
   * segment at the stop, forcing the directory.
   */
  static void completeSetAside(Outcome o, Path dir, FileIo io) throws IOException {
    for (Path p : o.later()) {
      io.rename(p, unique(p, 0));
    }
    if (o.cutFile() != null) {
      io.truncate(o.cutFile(), o.setAside().offset());
    }
    if (!o.later().isEmpty() || o.cutFile() != null) {
      io.forceDirectory(dir);
    }
  }

  private static Path unique(Path segment, long offset) {
    Path p = segment.resolveSibling(segment.getFileName() + LogScan.SET_ASIDE + offset);
    for (int n = 1; Files.exists(p); n++) {
      p = segment.resolveSibling(segment.getFileName() + LogScan.SET_ASIDE + offset + "." + n);
    }
    return p;
  }

  private static CorruptionException refusal(Damage d, LogRecoveryMode mode, int damages) {
    String more = damages > 1 ? " (" + damages + " damages in the log in all)" : "";
    String what;
    if (d.kind() == DamageKind.CORRUPTION) {
      what = "a log record fails its checksum or framing (" + d.length() + " bad"
          + " bytes" + (d.detail()
          == null ? "" : ", " + d.detail().replaceAll(",$", "")) + ") and " + d.recordsAfter()
          + " intact records (" + d.operationsAfter() + " operations) follow it to the end of the"
          + " log" + (d.laterSegments() > 0 ? ", in this segment and " + d.laterSegments()
          + " later segment(s)" : "") + more + "; they may hold acknowledged writes, so the store"
          + " is not opened (log.recovery-mode " + mode.configName() + ")." + OPEN_ANYWAY;
    } else if (d.losesOperations()) {
      String describe = d.describe();
      what = describe.substring(describe.indexOf(": ") + 2) + more + "; acknowledged writes may"
          + " be lost, so the store is not opened (log.recovery-mode " + mode.configName() + ")."
          + OPEN_ANYWAY;
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

  private static final String OPEN_ANYWAY = " To open it anyway set log.recovery-mode to"
      + " skip-corrupted (replays every intact record; loses only what is damaged or missing) or"
      + " point-in-time (replays up to here and moves the rest of the log aside into *.corrupt-*"
      + " files); see docs/format.md";
}
