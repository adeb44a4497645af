package org.strata.lsm.wal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.io.FileIo;

/**
 * A read-only look at every segment of a write-ahead log: for each segment its runs of intact
 * records and its bad ranges, and each bad range classified as a torn tail, as corruption, or as
 * harmless because every operation it can hold is already in a disk component. Recovery ({@link
 * WriteAheadLog#open}) and verification both start from it; reading changes nothing on disk.
 *
 * <p>Classification of a bad range at offset X of segment S:
 *
 * <ul>
 *   <li>{@link DamageKind#TORN_TAIL}: S is the last segment and no intact record follows X (the
 *       record runs past the end of the file, or only garbage or zeros follow). A process killed in
 *       the middle of a write leaves exactly this.
 *   <li>{@link DamageKind#FLUSHED}: otherwise, if the first intact record after it (in S, or the
 *       first sequence number of the next segment) shows that every operation the range can hold
 *       is at or below the flushed sequence number: replay would skip them anyway.
 *   <li>{@link DamageKind#CORRUPTION}: anything else; the intact records (and operations) after it
 *       are counted.
 * </ul>
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
   * Consecutive intact records.
   *
   * @param firstLsn sequence number of the first operation of the first record
   * @param lastLsn sequence number of the last operation of the last record
   * @param records how many records
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

  /** One segment file as scanned. */
  public record Segment(Path file, long firstLsn, long length, List<Span> spans) {
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

  /** What a bad range means for recovery. */
  public enum DamageKind {
    /** At the end of the last segment with nothing intact after it. */
    TORN_TAIL,
    /** Intact records may follow; the range may hold acknowledged operations. */
    CORRUPTION,
    /** Every operation it can hold is already in a disk component. */
    FLUSHED
  }

  /**
   * A bad range and what it means.
   *
   * @param segment index in {@link #segments()}
   * @param recordsAfter intact records after it, to the end of the log
   * @param operationsAfter their operations
   * @param laterSegments segments after its own
   */
  public record Damage(Path file, int segment, int offset, int length, boolean lengthFits,
      DamageKind kind, long recordsAfter, long operationsAfter, int laterSegments) {
    /** One line: where, how long, what follows. */
    public String describe() {
      String where = file + " at offset " + offset + ": ";
      return switch (kind) {
        case TORN_TAIL -> where + "a torn record at the tail of the last segment (" + length
            + " bytes to the end of the file, no intact record after them)" + (lengthFits
            ? "; its length fits the file, which a killed process does not leave (it leaves a"
            + " short record): unless the machine crashed, the last record is corrupt" : "");
        case FLUSHED -> where + length + " bad bytes whose operations are all in disk components"
            + " already (nothing to replay is lost)";
        case CORRUPTION -> where + length + " bad bytes (a record fails its checksum or framing)"
            + " followed by " + recordsAfter + " intact records (" + operationsAfter
            + " operations) to the end of the log" + (laterSegments > 0 ? ", in this segment and "
            + laterSegments + " later segment(s)" : "");
      };
    }
  }

  private final Path dir;
  private final FileIo io;
  private final List<Segment> segments;
  private final List<Damage> damages;
  private final List<Path> setAside;
  private final List<Path> unexpected;

  /** How the segments are read, and how recovery changes them. */
  FileIo io() {
    return io;
  }

  private LogScan(Path dir, FileIo io, List<Segment> segments, List<Damage> damages,
      List<Path> setAside, List<Path> unexpected) {
    this.dir = dir;
    this.io = io;
    this.segments = List.copyOf(segments);
    this.damages = List.copyOf(damages);
    this.setAside = List.copyOf(setAside);
    this.unexpected = List.copyOf(unexpected);
  }

  /**
   * Scans the log in {@code dir} (a missing directory is an empty log). {@code flushedLsn} is the
   * highest sequence number every reader of the log has in disk components; it only decides which
   * bad ranges are {@link DamageKind#FLUSHED}.
   */
  public static LogScan read(Path dir, long flushedLsn) throws IOException {
    return read(dir, flushedLsn, FileIo.standard());
  }

  /**
   * As {@link #read(Path, long)}, reading the segments (here and in {@link #replay}) through
   * {@code io}.
   */
  public static LogScan read(Path dir, long flushedLsn, FileIo io) throws IOException {
    TreeMap<Long, Path> files = new TreeMap<>();
    List<Path> setAside = new ArrayList<>();
    List<Path> unexpected = new ArrayList<>();
    if (Files.isDirectory(dir)) {
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
    List<Segment> segments = new ArrayList<>();
    for (Map.Entry<Long, Path> e : files.entrySet()) {
      byte[] data = io.readAll(e.getValue());
      segments.add(new Segment(e.getValue(), e.getKey(), data.length,
          LogSegmentReader.scan(data, e.getKey())));
    }
    return new LogScan(dir, io, segments, classify(segments, flushedLsn), setAside, unexpected);
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

  private static List<Damage> classify(List<Segment> segments, long flushedLsn) {
    List<Damage> out = new ArrayList<>();
    for (int si = 0; si < segments.size(); si++) {
      Segment seg = segments.get(si);
      List<Span> spans = seg.spans();
      for (int k = 0; k < spans.size(); k++) {
        if (!(spans.get(k) instanceof Bad bad)) {
          continue;
        }
        // Exclusive upper bound of the sequence numbers the bad bytes can hold.
        long bound = -1;
        long recordsAfter = 0;
        long opsAfter = 0;
        for (int j = k + 1; j < spans.size(); j++) {
          if (spans.get(j) instanceof Intact i) {
            bound = bound < 0 ? i.firstLsn() : bound;
            recordsAfter += i.records();
            opsAfter += i.operations();
          }
        }
        if (bound < 0 && si + 1 < segments.size()) {
          bound = segments.get(si + 1).firstLsn();
        }
        for (int sj = si + 1; sj < segments.size(); sj++) {
          recordsAfter += segments.get(sj).records();
          opsAfter += segments.get(sj).operations();
        }
        DamageKind kind;
        if (bound < 0) {
          kind = DamageKind.TORN_TAIL; // the last segment, nothing intact after it
        } else if (bound - 1 <= flushedLsn) {
          kind = DamageKind.FLUSHED;
        } else {
          kind = DamageKind.CORRUPTION;
        }
        out.add(new Damage(seg.file(), si, bad.offset(), bad.length(), bad.lengthFits(), kind,
            recordsAfter, opsAfter, segments.size() - 1 - si));
      }
    }
    return out;
  }

  /** The log directory. */
  public Path directory() {
    return dir;
  }

  /** Segments in sequence-number order. */
  public List<Segment> segments() {
    return segments;
  }

  /** Every bad range, in log order. */
  public List<Damage> damages() {
    return damages;
  }

  /** Files holding bytes an earlier point-in-time recovery set aside ({@code *.corrupt-<offset>}). */
  public List<Path> setAside() {
    return setAside;
  }

  /** Files named like segments whose sequence number does not parse; ignored by recovery. */
  public List<Path> unexpected() {
    return unexpected;
  }

  /** Highest sequence number in any segment (intact records, or a segment's name), 0 if none. */
  public long lastLsn() {
    long last = 0;
    for (Segment s : segments) {
      last = Math.max(last, s.lastLsn());
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
   * Passes to {@code replayer} every operation above {@code skipUpToLsn} of the intact records that
   * lie before segment {@code stopSegment}, offset {@code stopOffset} (use {@code segments().size()}
   * and 0 for all of them), in log order. Reads the files again; changes nothing.
   *
   * @throws CorruptionException if a file changed since the scan
   */
  public void replay(int stopSegment, int stopOffset, long skipUpToLsn, LogReplayer replayer)
      throws IOException {
    for (int si = 0; si < segments.size() && si <= stopSegment; si++) {
      Segment seg = segments.get(si);
      int limit = si == stopSegment ? stopOffset : Integer.MAX_VALUE;
      if (limit == 0 || seg.records() == 0) {
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
