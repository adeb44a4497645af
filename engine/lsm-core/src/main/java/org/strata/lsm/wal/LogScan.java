package org.strata.lsm.wal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.io.FileIo;

/**
 * A read-only look at a write-ahead log: its catalogue ({@link LogCatalog}), every segment with
 * its runs of intact records and its bad ranges, and what is wrong with the log as a whole or with
 * each segment: a bad range, a segment the catalogue lists that is missing, cut short or longer
 * than it was sealed at, a segment of another log, or a log that belongs to another store.
 * Recovery ({@link WriteAheadLog#open}) and verification both start from it; reading changes
 * nothing on disk.
 *
 * <p>Classification of a bad range at offset X of segment S:
 *
 * <ul>
 *   <li>{@link DamageKind#TORN_TAIL}: S is the last segment, no intact record follows X (the record
 *       runs past the end of the file, or only garbage or zeros follow), and X is beyond every
 *       offset the log certified as forced (a force mark after it, or the size the catalogue
 *       records). A process killed in the middle of a write leaves exactly this.
 *   <li>{@link DamageKind#FLUSHED}: otherwise, if the first intact record after it (in S, or the
 *       first sequence number of the next segment) shows that every operation the range can hold
 *       is at or below the flushed sequence number: replay would skip them anyway.
 *   <li>{@link DamageKind#CORRUPTION}: anything else; the intact records (and operations) after it
 *       are counted.
 * </ul>
 *
 * A segment the catalogue lists but that is missing, cut short, longer than sealed, or whose
 * header names another log or another first sequence number is a damage of its own kind ({@link
 * DamageKind#MISSING}, {@link DamageKind#SHORT}, {@link DamageKind#LONG}, {@link
 * DamageKind#WRONG_SEGMENT}), and {@link DamageKind#FLUSHED} when every operation it could hold
 * is flushed.
 */
public final class LogScan {
  /** File names of log segments: {@code wal-<first LSN, 20 digits>.log}. */
  static final String PREFIX = "wal-";
  static final String SUFFIX = ".log";
  /** Suffix (followed by the offset the bytes came from) of bytes that recovery set aside. */
  static final String SET_ASIDE = ".corrupt-";

  /** A part of a segment: a run of intact records or a bad range. */
  public sealed interface Span permits Intact, Bad {
    /** Offset of the first byte. */
    int offset();

    /** Offset after the last byte. */
    int end();
  }

  /**
   * Consecutive intact records (force marks included).
   *
   * @param firstLsn sequence number of the first operation of the first record
   * @param lastLsn sequence number of the last operation of the last record
   * @param records how many records (force marks not counted)
   * @param operations how many operations they hold
   */
  public record Intact(int offset, int end, long firstLsn, long lastLsn, int records,
      long operations) implements Span {}

  /**
   * Bytes that hold no intact record: they failed framing or checksum.
   *
   * @param lengthFits whether the first bad record's length field fits in the file: a whole record
   *     whose checksum or body fails, rather than one cut short
   */
  public record Bad(int offset, int length, boolean lengthFits) implements Span {
    @Override
    public int end() {
      return offset + length;
    }
  }

  /**
   * One segment file as scanned.
   *
   * @param dataStart offset of its first record: after the header, or 0 for a format-1 segment
   * @param format 2 (with a header) or 1
   * @param usable false for a segment whose records are not this log's (a header naming another
   *     log or first sequence number, or a damaged header): it is never replayed
   * @param certified the offset up to which the log is known to have forced it (its size when
   *     sealed), 0 if unknown
   * @param sealed whether the catalogue lists it as sealed
   */
  public record Segment(Path file, long firstLsn, long length, int dataStart, int format,
      boolean usable, long certified, boolean sealed, List<Span> spans) {
    /** Highest sequence number of its intact records, or {@code firstLsn - 1} if none. */
    public long lastLsn() {
      long last = firstLsn - 1;
      for (Span s : spans) {
        if (s instanceof Intact i) {
          last = Math.max(last, i.lastLsn());
        }
      }
      return last;
    }

    /** Intact records in the segment. */
    public long records() {
      return spans.stream().mapToLong(s -> s instanceof Intact i ? i.records() : 0).sum();
    }

    /** Operations of its intact records. */
    public long operations() {
      return spans.stream().mapToLong(s -> s instanceof Intact i ? i.operations() : 0).sum();
    }
  }

  /** What makes a whole log unusable for its opener. */
  public enum LogFaultKind {
    /** The log directory holds another store's or partition's log. */
    FOREIGN,
    /** The catalogue fails its checksum or does not parse. */
    CATALOG_DAMAGED,
    /** The owner recorded a log with an id, and the directory holds no catalogue. */
    MISSING
  }

  /** What a damage means for recovery. */
  public enum DamageKind {
    /** At the end of the last segment with nothing intact or forced after it. */
    TORN_TAIL,
    /** Intact records may follow, or the log had forced it; it may hold acknowledged operations. */
    CORRUPTION,
    /** Every operation it can hold is already in a disk component. */
    FLUSHED,
    /** A segment the catalogue lists is missing. */
    MISSING,
    /** A segment is shorter than the catalogue says it was sealed or forced at. */
    SHORT,
    /** A sealed segment is longer than the catalogue says it was sealed at. */
    LONG,
    /**
     * A segment whose header names another log or another first sequence number, whose header is
     * damaged, of a format the catalogue does not list, or that the catalogue does not list.
     */
    WRONG_SEGMENT
  }

  /**
   * A damage and what it means.
   *
   * @param file the segment (for {@link DamageKind#MISSING}, the path it should have)
   * @param segment index in {@link #segments()} where replay must stop for it (for a missing
   *     segment: the next present one, or {@code segments().size()})
   * @param offset offset in that segment where replay must stop
   * @param length bad bytes (0 when none are present)
   * @param detail for the non-range kinds, what exactly is wrong
   * @param recordsAfter intact records after it, to the end of the log
   * @param operationsAfter their operations
   * @param laterSegments segments after its own
   */
  public record Damage(Path file, int segment, int offset, int length, boolean lengthFits,
      DamageKind kind, String detail, long recordsAfter, long operationsAfter,
      int laterSegments) {
    /** One line: where, how long, what follows. */
    public String describe() {
      String where = file + (kind == DamageKind.MISSING ? ": " : " at offset " + offset + ": ");
      String after = " followed by " + recordsAfter + " intact records (" + operationsAfter
          + " operations) to the end of the log" + (laterSegments > 0 ? ", in this segment and "
          + laterSegments + " later segment(s)" : "");
      return switch (kind) {
        case TORN_TAIL -> where + "a torn record at the tail of the last segment (" + length
            + " bytes to the end of the file, no intact record after them)" + (lengthFits
            ? "; its length fits the file, which a killed process does not leave (it leaves a"
            + " short record): unless the machine crashed, the last record is corrupt" : "");
        case FLUSHED -> where + (detail != null ? detail + ", but every operation it can hold"
            + " is in disk components already (nothing to replay is lost)" : length
            + " bad bytes whose operations are all in disk components already (nothing to"
            + " replay is lost)");
        case CORRUPTION -> where + length + " bad bytes (a record fails its checksum or framing)"
            + (detail != null ? " " + detail : "") + after;
        case MISSING, SHORT, LONG, WRONG_SEGMENT -> where + detail + ";" + after;
      };
    }

    /** Whether replay may lose acknowledged operations here. */
    public boolean losesOperations() {
      return kind != DamageKind.TORN_TAIL && kind != DamageKind.FLUSHED;
    }
  }

  private final Path dir;
  private final FileIo io;
  private final LogCatalog catalog;
  private final UUID logId;
  private final String logFault;
  private final LogFaultKind faultKind;
  private final List<Segment> segments;
  private final List<Damage> damages;
  private final List<Path> setAside;
  private final List<Path> unexpected;
  private final List<Path> leftovers;
  private final List<Path> pendingSetAside;
  private final Damage pendingCut;

  /** How the segments are read, and how recovery changes them. */
  FileIo io() {
    return io;
  }

  private LogScan(Path dir, FileIo io, LogCatalog catalog, UUID logId, String logFault,
      LogFaultKind faultKind, List<Segment> segments, List<Damage> damages, List<Path> setAside,
      List<Path> unexpected, List<Path> leftovers, List<Path> pendingSetAside,
      Damage pendingCut) {
    this.dir = dir;
    this.io = io;
    this.catalog = catalog;
    this.logId = logId;
    this.logFault = logFault;
    this.faultKind = faultKind;
    this.segments = List.copyOf(segments);
    this.damages = List.copyOf(damages);
    this.setAside = List.copyOf(setAside);
    this.unexpected = List.copyOf(unexpected);
    this.leftovers = List.copyOf(leftovers);
    this.pendingSetAside = List.copyOf(pendingSetAside);
    this.pendingCut = pendingCut;
  }

  /**
   * Scans the log in {@code dir} without knowing its owner: the catalogue's id is taken as the
   * log's (a missing directory is an empty log).
   */
  public static LogScan read(Path dir, long flushedLsn) throws IOException {
    return read(dir, flushedLsn, FileIo.standard(), null);
  }

  /**
   * Scans the log in {@code dir} (a missing directory is an empty log). {@code flushedLsn} is the
   * highest sequence number every reader of the log has in disk components; it decides which
   * damages are {@link DamageKind#FLUSHED}. {@code owner}, when not null, is who opens the log: a
   * catalogue of another log is then the {@link #logFault()}.
   */
  public static LogScan read(Path dir, long flushedLsn, FileIo io, LogOwner owner)
      throws IOException {
    LogScanReader r = new LogScanReader(dir, io);
    r.listFiles();
    r.readCatalog(owner);
    for (Map.Entry<Long, Path> e : r.files.entrySet()) {
      r.scanSegment(e.getKey(), e.getValue());
    }
    r.addMissing();
    return new LogScan(dir, io, r.catalog, r.logId, r.logFault, r.faultKind, r.segments,
        r.damages(flushedLsn), r.setAside, r.unexpected, r.leftovers,
        r.pendingSetAside, r.pendingCut);
  }

  /** The file name of the segment whose first sequence number is {@code first}. */
  static String segmentName(long first) {
    return String.format(java.util.Locale.ROOT, "wal-%020d.log", first);
  }

  /** The first sequence number named by a segment file name, or null if it names none. */
  static Long parseFirstLsn(String name) {
    if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) {
      return null;
    }
    String digits = name.substring(PREFIX.length(), name.length() - SUFFIX.length());
    if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
      return null;
    }
    try {
      long v = Long.parseLong(digits);
      return v >= 1 ? v : null;
    } catch (NumberFormatException ex) {
      return null;
    }
  }

  /** The log directory. */
  public Path directory() {
    return dir;
  }

  /** The log's catalogue, or null if it has none (a new log, or one written before catalogues). */
  public LogCatalog catalog() {
    return catalog;
  }

  /**
   * The log's id: its catalogue's, else the owner's recorded one, else the id its segments' headers
   * carry; null for a log with none (new, or written before ids).
   */
  public UUID logId() {
    return logId;
  }

  /**
   * What makes the whole log unusable for its opener, or null: a catalogue that names another
   * store's log, a damaged catalogue, or a log the owner recorded that is missing.
   */
  public String logFault() {
    return logFault;
  }

  /** What kind {@link #logFault()} is, or null when there is none. */
  public LogFaultKind logFaultKind() {
    return faultKind;
  }

  /** Segments in sequence-number order. */
  public List<Segment> segments() {
    return segments;
  }

  /** Every damage, in log order. */
  public List<Damage> damages() {
    return damages;
  }

  /**
   * Files holding bytes an earlier point-in-time recovery set aside ({@code *.corrupt-<offset>}).
   */
  public List<Path> setAside() {
    return setAside;
  }

  /** Files named like segments whose sequence number does not parse; ignored by recovery. */
  public List<Path> unexpected() {
    return unexpected;
  }

  /**
   * Segments before the first one the catalogue lists: truncation listed the log without them and
   * a crash came before it deleted them. Every operation in them is flushed; an open deletes them.
   */
  public List<Path> leftovers() {
    return leftovers;
  }

  /**
   * Segments a point-in-time recovery was setting aside when a crash came (its catalogue says so):
   * an open renames them aside as it would have.
   */
  public List<Path> pendingSetAside() {
    return pendingSetAside;
  }

  /**
   * The bytes at the end of a segment a point-in-time recovery set aside and had not yet cut off
   * when a crash came (copied aside already), or null: an open cuts them off. Never replayed.
   */
  public Damage pendingCut() {
    return pendingCut;
  }

  /**
   * Highest sequence number in any usable segment (intact records, or a segment's name), 0 if none.
   */
  public long lastLsn() {
    long last = 0;
    for (Segment s : segments) {
      // An unusable segment's name is taken too: a new segment must never be created over it.
      last = Math.max(last, s.usable() ? s.lastLsn() : s.firstLsn());
    }
    return last;
  }

  /** Intact records in all segments. */
  public long records() {
    return segments.stream().mapToLong(Segment::records).sum();
  }

  /** Operations of the intact records in all segments. */
  public long operations() {
    return segments.stream().mapToLong(Segment::operations).sum();
  }

  /**
   * Passes to {@code replayer} every operation above {@code skipUpToLsn} of the intact records of
   * usable segments that lie before segment {@code stopSegment}, offset {@code stopOffset} (use
   * {@code segments().size()} and 0 for all of them), in log order. Reads the files again; changes
   * nothing.
   *
   * @throws CorruptionException if a file changed since the scan
   */
  public void replay(int stopSegment, int stopOffset, long skipUpToLsn, LogReplayer replayer)
      throws IOException {
    for (int si = 0; si < segments.size() && si <= stopSegment; si++) {
      Segment seg = segments.get(si);
      int limit = si == stopSegment ? stopOffset : Integer.MAX_VALUE;
      if (limit == 0 || seg.records() == 0 || !seg.usable()) {
        continue;
      }
      byte[] data = io.readAll(seg.file());
      for (Span s : seg.spans()) {
        if (!(s instanceof Intact run) || run.offset() >= limit) {
          continue;
        }
        int pos = run.offset();
        while (pos < run.end()) {
          int next = LogRecordCodec.decode(data, pos, data.length, replayer, skipUpToLsn);
          if (next < 0) {
            throw new CorruptionException(seg.file(), pos, "the log segment changed while it was"
                + " being recovered (a record that was intact is not)");
          }
          pos = next;
        }
      }
    }
  }
}
