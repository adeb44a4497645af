package org.strata.lsm.wal;

import static org.strata.lsm.wal.LogScan.PREFIX;
import static org.strata.lsm.wal.LogScan.SET_ASIDE;
import static org.strata.lsm.wal.LogScan.SUFFIX;
import static org.strata.lsm.wal.LogScan.parseFirstLsn;
import static org.strata.lsm.wal.LogScan.segmentName;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.wal.LogScan.Bad;
import org.strata.lsm.wal.LogScan.Damage;
import org.strata.lsm.wal.LogScan.DamageKind;
import org.strata.lsm.wal.LogScan.Intact;
import org.strata.lsm.wal.LogScan.LogFaultKind;
import org.strata.lsm.wal.LogScan.Segment;
import org.strata.lsm.wal.LogScan.Span;

/**
 * One {@link LogScan#read} of a log directory in progress: the files listed, the catalogue, what
 * the segments scanned so far hold and lack, and the classification of every damage found. Used
 * by one thread for one scan; holds no lock and guards nothing.
 */
final class LogScanReader {
  final Path dir;
  final FileIo io;
  /** Segment files by the first sequence number their name gives. */
  final TreeMap<Long, Path> files = new TreeMap<>();
  final List<Path> setAside = new ArrayList<>();
  final List<Path> unexpected = new ArrayList<>();
  LogCatalog catalog;
  String logFault;
  LogFaultKind faultKind;
  UUID logId;
  final List<Segment> segments = new ArrayList<>();
  /** Damages of whole segments (not bad ranges), before classification. */
  final List<Damage> identity = new ArrayList<>();
  final List<Path> leftovers = new ArrayList<>();
  final List<Path> pendingSetAside = new ArrayList<>();
  Damage pendingCut;
  long firstListed = Long.MAX_VALUE;
  long lastListed = Long.MIN_VALUE;
  /** Whether an unlisted segment after the last listed one was taken as the log's. */
  boolean adopted;

  LogScanReader(Path dir, FileIo io) {
    this.dir = dir;
    this.io = io;
  }

  /** Sorts the directory's files: segments, bytes set aside, and unparsable segment names. */
  void listFiles() throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        String n = p.getFileName().toString();
        if (!n.startsWith(PREFIX)) {
          continue;
        }
        if (n.contains(SUFFIX + SET_ASIDE)) {
          setAside.add(p);
        } else if (n.endsWith(SUFFIX)) {
          Long first = parseFirstLsn(n);
          if (first == null) {
            unexpected.add(p);
          } else {
            files.put(first, p);
          }
        }
      }
    }
  }

  /** Reads the catalogue and decides the log's id and whether the whole log is at fault. */
  void readCatalog(LogOwner owner) throws IOException {
    try {
      catalog = Files.isDirectory(dir) ? LogCatalog.read(dir, io) : null;
    } catch (CorruptionException e) {
      logFault = e.getMessage() + "; the log's list of segments cannot be trusted, so nothing"
          + " tells a missing or foreign segment from a good one";
      faultKind = LogFaultKind.CATALOG_DAMAGED;
    }
    if (catalog != null) {
      checkOwner(owner);
      logId = catalog.logId();
    } else if (owner != null && owner.id() != null) {
      logId = owner.id();
    }
    if (catalog == null && logFault == null && owner != null && owner.id() != null) {
      logFault = dir.resolve(LogCatalog.FILE) + ": missing, but " + owner.dir() + " recorded"
          + " log " + owner.id() + " in " + dir + (files.isEmpty() ? "" : " (" + files.size()
          + " segment file(s) are there)") + ": the log was removed or moved, or the"
          + " configuration names the wrong log.dir";
      faultKind = LogFaultKind.MISSING;
    }
    if (catalog != null && !catalog.segments().isEmpty()) {
      firstListed = catalog.segments().get(0).first();
      lastListed = catalog.segments().get(catalog.segments().size() - 1).first();
    }
  }

  /** A catalogue of another log than the one {@code owner} recorded is the log's fault. */
  private void checkOwner(LogOwner owner) {
    if (owner != null && owner.id() != null && !owner.id().equals(catalog.logId())) {
      logFault = dir.resolve(LogCatalog.FILE) + ": the log in " + dir + " is not this one: it"
          + " is log " + catalog.logId() + " of " + catalog.owner() + ", and " + owner.dir()
          + " recorded log " + owner.id() + " (two stores or partitions given the same log"
          + " directory, or log files moved between them)";
      faultKind = LogFaultKind.FOREIGN;
    } else if (owner != null && owner.id() == null && !owner.dir().equals(catalog.owner())) {
      logFault = dir.resolve(LogCatalog.FILE) + ": " + dir + " holds the log of "
          + catalog.owner() + " (log " + catalog.logId() + "), not of " + owner.dir()
          + "; give each store and each dataset its own log directory";
      faultKind = LogFaultKind.FOREIGN;
    }
  }

  /** Reads and scans the segment file whose name gives {@code first}. */
  void scanSegment(long first, Path file) throws IOException {
    byte[] data = io.readAll(file);
    LogCatalog.Entry listed = catalog == null ? null : catalog.entry(first);
    if (catalog != null && listed == null && first < firstListed) {
      leftovers.add(file); // truncation listed the log without it, then a crash came
      return;
    }
    LogCatalog.SetAside sa = catalog == null ? null : catalog.setAside();
    if (sa != null && listed == null && first > sa.first() && first < lastListed) {
      pendingSetAside.add(file); // a point-in-time recovery a crash interrupted: finished
      return;
    }
    SegmentHeader[] h = new SegmentHeader[1];
    SegmentHeader.Form form = SegmentHeader.read(data, h);
    boolean trailing = catalog != null && listed == null && first > lastListed && !adopted;
    if (trailing && data.length < SegmentHeader.SIZE && form != SegmentHeader.Form.HEADER) {
      // A segment a roll had just created when a crash came, before its header reached the
      // disk: it holds no record, and the open deletes it.
      leftovers.add(file);
      return;
    }
    String wrong = wrongHeader(first, listed, form, h[0]);
    if (wrong == null && catalog != null && listed == null) {
      if (trailing) {
        adopted = true; // a new segment whose first force a crash interrupted: adopted
      } else {
        wrong = "the log's catalogue does not list it";
      }
    }
    int format = form == SegmentHeader.Form.NO_HEADER ? 1 : 2;
    int start = format == 2 && data.length >= SegmentHeader.SIZE ? SegmentHeader.SIZE : 0;
    byte[] read = data;
    if (listed != null && listed.sealed() && data.length > listed.size()
        && listed.size() >= start) {
      // Bytes added to a sealed segment are not the log's: only its sealed size is read.
      read = Arrays.copyOf(data, (int) listed.size());
    }
    LogSegmentReader.Scanned scanned = wrong == null
        ? LogSegmentReader.scan(read, start, first)
        : new LogSegmentReader.Scanned(List.of(), 0);
    long certified = scanned.markedForced();
    boolean sealed = false;
    if (listed != null) {
      certified = Math.max(certified, listed.size());
      sealed = listed.sealed();
    }
    segments.add(new Segment(file, first, data.length, start, format, wrong == null,
        certified, sealed, scanned.spans()));
    noteSegmentDamage(file, first, data.length, listed, sa, wrong);
  }

  /**
   * What is wrong with a segment's header (or its lack of one), or null: it names another log
   * or first sequence number, it is damaged, or it is missing where the catalogue expects one.
   */
  private String wrongHeader(long first, LogCatalog.Entry listed, SegmentHeader.Form form,
      SegmentHeader h) {
    if (form == SegmentHeader.Form.DAMAGED) {
      return "its header is damaged (cut short, or its checksum or version fails)";
    } else if (form == SegmentHeader.Form.HEADER) {
      if (logId != null && !h.logId().equals(logId)) {
        return "its header names log " + h.logId() + ", not this log (" + logId + "): a"
            + " segment of another store or partition";
      } else if (h.firstLsn() != first) {
        return "its header names first sequence number " + h.firstLsn() + ", not the "
            + first + " of its name: the file was renamed, or copied over another";
      } else if (catalog == null && logFault == null) {
        return "the log has no catalogue (" + LogCatalog.FILE + "), which every log whose"
            + " segments have headers has: it was removed";
      }
    } else if (catalog != null && (listed == null || listed.format() != 1)) {
      return "it has no header, which only a segment written before headers existed lacks,"
          + " and the log's catalogue does not list it as one";
    }
    return null;
  }

  /**
   * Notes the damage of the whole segment just added, if any: not the log's ({@code wrong}),
   * bytes a point-in-time recovery left to cut off, longer than sealed, or cut short.
   */
  private void noteSegmentDamage(Path file, long first, int length, LogCatalog.Entry listed,
      LogCatalog.SetAside sa, String wrong) {
    int si = segments.size() - 1;
    boolean sealed = listed != null && listed.sealed();
    if (wrong != null) {
      identity.add(new Damage(file, si, 0, length, false, DamageKind.WRONG_SEGMENT, wrong,
          0, 0, 0));
    } else if (sa != null && listed != null && first == sa.first()
        && length > listed.size()) {
      pendingCut = new Damage(file, si, (int) listed.size(), (int) (length
          - listed.size()), false, DamageKind.LONG, "a point-in-time recovery set these bytes"
          + " aside and a crash came before it cut them off", 0, 0, 0);
    } else if (listed != null && sealed && length > listed.size()) {
      identity.add(new Damage(file, si, (int) listed.size(), (int) (length
          - listed.size()), false, DamageKind.LONG, "it is " + length + " bytes long but"
          + " was sealed at " + listed.size() + " bytes: bytes were added to it", 0, 0, 0));
    } else if (listed != null && length < listed.size()) {
      identity.add(new Damage(file, si, length, 0, false, DamageKind.SHORT, "it is "
          + length + " bytes long but was " + (sealed ? "sealed at " : "forced to at"
          + " least ") + listed.size() + " bytes: it was cut short", 0, 0, 0));
    }
  }

  /** Listed segments that are not there, each placed before the next present segment. */
  void addMissing() {
    if (catalog == null || logFault != null) {
      return;
    }
    for (LogCatalog.Entry e : catalog.segments()) {
      if (files.containsKey(e.first())) {
        continue;
      }
      int next = 0;
      while (next < segments.size() && segments.get(next).firstLsn() < e.first()) {
        next++;
      }
      identity.add(new Damage(dir.resolve(segmentName(e.first())), next,
          next < segments.size() ? segments.get(next).dataStart() : 0, 0, false,
          DamageKind.MISSING, "the log's catalogue lists this " + (e.sealed() ? "sealed"
          + " segment of " + e.size() + " bytes" : "segment (the one appends went to, forced to"
          + " at least " + e.size() + " bytes)") + " but the file is missing", 0, 0, 0));
    }
  }

  /** Every damage found, in log order, classified against {@code flushedLsn} (see LogScan). */
  List<Damage> damages(long flushedLsn) {
    return classify(segments, identity, flushedLsn);
  }

  private static List<Damage> classify(List<Segment> segments, List<Damage> identity,
      long flushedLsn) {
    List<Damage> found = new ArrayList<>(identity);
    for (int si = 0; si < segments.size(); si++) {
      Segment seg = segments.get(si);
      for (Span s : seg.spans()) {
        if (s instanceof Bad bad) {
          found.add(new Damage(seg.file(), si, bad.offset(), bad.length(), bad.lengthFits(),
              DamageKind.CORRUPTION, null, 0, 0, 0));
        }
      }
    }
    found.sort((a, b) -> a.segment() != b.segment() ? Integer.compare(a.segment(), b.segment())
        : Integer.compare(a.offset(), b.offset()));
    List<Damage> out = new ArrayList<>();
    for (Damage d : found) {
      int si = d.segment();
      boolean missing = d.kind() == DamageKind.MISSING;
      // Exclusive upper bound of the sequence numbers the damage can hold (-1: unknown), and the
      // intact records after it to the end of the log.
      long bound = -1;
      long recordsAfter = 0;
      long opsAfter = 0;
      int nextSegment = missing ? si : si + 1;
      if (!missing) {
        for (Span sp : segments.get(si).spans()) {
          if (sp instanceof Intact i && sp.offset() >= d.offset() + d.length()) {
            bound = bound < 0 ? i.firstLsn() : bound;
            recordsAfter += i.records();
            opsAfter += i.operations();
          }
        }
      }
      if (bound < 0 && nextSegment < segments.size()) {
        bound = segments.get(nextSegment).firstLsn();
      }
      for (int sj = nextSegment; sj < segments.size(); sj++) {
        recordsAfter += segments.get(sj).records();
        opsAfter += segments.get(sj).operations();
      }
      DamageKind kind = d.kind();
      String detail = d.detail();
      if (kind == DamageKind.CORRUPTION) {
        Segment seg = segments.get(si);
        boolean forced = d.offset() < seg.certified();
        if (bound < 0 && si == segments.size() - 1 && !forced) {
          kind = DamageKind.TORN_TAIL;
        } else if (bound >= 0 && bound - 1 <= flushedLsn) {
          kind = DamageKind.FLUSHED;
        } else if (forced) {
          detail = "inside what the log had forced (to offset " + seg.certified()
              + "), so not a torn write,";
        }
      } else if (kind != DamageKind.LONG && bound >= 0 && bound - 1 <= flushedLsn) {
        kind = DamageKind.FLUSHED;
      }
      int later = Math.max(0, segments.size() - 1 - si);
      out.add(new Damage(d.file(), si, d.offset(), d.length(), d.lengthFits(), kind, detail,
          recordsAfter, opsAfter, later));
    }
    return out;
  }
}
