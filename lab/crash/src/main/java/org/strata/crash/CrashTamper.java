package org.strata.crash;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.StrataException;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.BigEndian;
import org.strata.lsm.wal.LogCatalog;
import org.strata.lsm.wal.SegmentHeader;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * The file mix-ups of docs/reliability.md, "Files that are swapped, missing or misplaced", tried
 * on the crash image a kill left: a copy of the store or dataset taken right after the kill gets
 * one mix-up, and is then opened and read. It must either be refused with an error naming the
 * file (or directory) mixed up, or read exactly what the real store reads after its recovery (a
 * mix-up that loses nothing, such as a missing segment whose writes are all in disk components).
 * Anything else is a silent loss or wrong data: a failed check.
 */
final class CrashTamper {
  /** One mix-up. */
  enum Kind {
    /** Two component files of one index swap names. */
    COMPONENT_SWAP,
    /** The oldest log segment is deleted. */
    SEGMENT_GAP,
    /** A byte flips in the last record the log had certified as forced. */
    FORCED_RECORD_FLIP,
    /** A second store is given the image's log directory as its {@code log.dir}. */
    LOG_DIR_SHARED,
    /** Two partitions' log directories are swapped (datasets of two partitions). */
    PARTITION_LOG_SWAP
  }

  /**
   * What a mix-up gave.
   *
   * @param kind the mix-up
   * @param outcome {@code refused} (naming the file), {@code harmless} (read the same), or why it
   *     did not apply
   * @param fault a silent loss, wrong data or an error that does not name the file; null if none
   */
  record Result(Kind kind, String outcome, String fault) {}

  private CrashTamper() {}

  /** The mix-ups that apply to {@code target}: a partition log swap only to a dataset. */
  static List<Kind> kindsFor(CrashTarget target) {
    List<Kind> kinds = new ArrayList<>(List.of(Kind.values()));
    if (!target.writer().dataset()) {
      kinds.remove(Kind.PARTITION_LOG_SWAP);
    }
    return kinds;
  }

  /**
   * Applies {@code kind} to {@code image} (a crash image, which it changes) and checks it against
   * {@code expected}, what the real store read after its recovery.
   *
   * @param scratch an empty directory for a second store
   */
  @SuppressWarnings("try") // a store opened only to see whether the open is refused
  static Result check(Kind kind, CrashTarget target, Path image, Path scratch,
      Map<String, String> expected) throws IOException {
    List<Path> logDirs = logDirs(target, image);
    String named;
    switch (kind) {
      case COMPONENT_SWAP -> {
        List<Path> cs = null;
        for (Path index : indexDirs(target, image)) {
          List<Path> here = list(index, ".cmp");
          if (here.size() >= 2) {
            cs = here;
            break;
          }
        }
        if (cs == null) {
          return new Result(kind, "n/a (no index with two components)", null);
        }
        Path a = cs.get(0);
        Path b = cs.get(cs.size() - 1);
        Path t = a.resolveSibling("swap.tmp.x");
        Files.move(a, t);
        Files.move(b, a);
        Files.move(t, b);
        named = a.getFileName() + "|" + b.getFileName();
      }
      case SEGMENT_GAP -> {
        Path log = logDirs.get(0);
        List<Path> segs = list(log, ".log");
        if (segs.isEmpty()) {
          return new Result(kind, "n/a (no segment)", null);
        }
        Files.delete(segs.get(0));
        named = segs.get(0).getFileName().toString();
      }
      case FORCED_RECORD_FLIP -> {
        Path log = logDirs.get(0);
        List<Path> segs = list(log, ".log");
        if (segs.isEmpty()) {
          return new Result(kind, "n/a (no segment)", null);
        }
        Path seg = segs.get(segs.size() - 1);
        int at = lastCertifiedRecordByte(Files.readAllBytes(seg));
        if (at < 0) {
          return new Result(kind, "n/a (no record certified as forced)", null);
        }
        byte[] data = Files.readAllBytes(seg);
        data[at] ^= 0x20;
        Files.write(seg, data);
        named = seg.getFileName().toString();
      }
      case LOG_DIR_SHARED -> {
        Path log = logDirs.get(0);
        Path other = scratch.resolve("other-store");
        StoreConfig c = StoreConfig.defaults();
        try (LsmStore s = LsmStore.open(other, c.withLog(c.log().withDir(log.toString())))) {
          return new Result(kind, "opened", "a second store opened " + log + ", the log of "
              + image);
        } catch (StrataException e) {
          if (!String.valueOf(e.getMessage()).contains(log.toString())) {
            return new Result(kind, "refused", "the refusal does not name " + log + ": "
                + e.getMessage());
          }
        }
        // The image itself is unchanged by the refused open and reads as before.
        named = null;
      }
      case PARTITION_LOG_SWAP -> {
        if (logDirs.size() < 2) {
          return new Result(kind, "n/a (one partition)", null);
        }
        Path a = logDirs.get(0);
        Path b = logDirs.get(1);
        Path t = a.resolveSibling("swap-tmp");
        Files.move(a, t);
        Files.move(b, a);
        Files.move(t, b);
        named = LogCatalog.FILE;
      }
      default -> throw new IllegalStateException();
    }
    Map<String, String> got;
    try {
      got = CrashVerifier.content(target, image);
    } catch (StrataException | IOException e) {
      String m = String.valueOf(e.getMessage());
      boolean names = named != null && Stream.of(named.split("\\|")).anyMatch(m::contains);
      return new Result(kind, "refused", names ? null : "the refusal does not name "
          + named + ": " + m);
    }
    if (!got.equals(expected)) {
      return new Result(kind, "opened", "opened after " + kind + " (" + named + ") and read "
          + got.size() + " keys where the recovered store holds " + expected.size()
          + (got.size() == expected.size() ? " (values differ)" : ""));
    }
    return new Result(kind, named == null ? "refused" : "harmless", null);
  }

  /**
   * An offset inside the body of the last record before the highest offset a force mark of the
   * segment certifies as forced, or -1 if there is none.
   */
  static int lastCertifiedRecordByte(byte[] data) {
    int pos = data.length >= SegmentHeader.SIZE ? SegmentHeader.SIZE : 0;
    long certified = 0;
    List<int[]> records = new ArrayList<>(); // {offset, end}
    while (pos + 20 <= data.length) {
      int bodyLen = BigEndian.getInt(data, pos);
      if (bodyLen < 12 || pos + 8L + bodyLen > data.length) {
        break;
      }
      int count = BigEndian.getInt(data, pos + 16);
      int end = pos + 8 + bodyLen;
      if (count == 0 && bodyLen == WriteAheadLog.FORCE_MARK_BYTES - 8) {
        certified = Math.max(certified, BigEndian.getLong(data, pos + 20));
      } else {
        records.add(new int[] {pos, end});
      }
      pos = end;
    }
    for (int i = records.size() - 1; i >= 0; i--) {
      int[] r = records.get(i);
      if (r[1] <= certified) {
        return r[0] + 20 + (r[1] - r[0] - 20) / 2; // inside the operations
      }
    }
    return -1;
  }

  private static List<Path> indexDirs(CrashTarget target, Path image) throws IOException {
    if (!target.writer().dataset()) {
      return List.of(image);
    }
    List<Path> out = new ArrayList<>();
    for (Path p : list(image, "")) {
      if (Files.isDirectory(p) && p.getFileName().toString().matches("p[0-9]+")) {
        for (Path i : list(p, "")) {
          if (Files.isDirectory(i) && !i.getFileName().toString().equals("wal")) {
            out.add(i);
          }
        }
      }
    }
    return out;
  }

  private static List<Path> logDirs(CrashTarget target, Path image) throws IOException {
    if (!target.writer().dataset()) {
      return List.of(image.resolve("wal"));
    }
    List<Path> out = new ArrayList<>();
    for (Path p : list(image, "")) {
      if (Files.isDirectory(p) && p.getFileName().toString().matches("p[0-9]+")) {
        out.add(p.resolve("wal"));
      }
    }
    return out;
  }

  private static List<Path> list(Path dir, String suffix) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  /** Copies {@code from} to {@code to} (a new directory), skipping the lock files. */
  static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(from, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) throws IOException {
        Files.createDirectories(to.resolve(from.relativize(d).toString()));
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
        Files.copy(f, to.resolve(from.relativize(f).toString()),
            StandardCopyOption.COPY_ATTRIBUTES);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /** Deletes {@code dir} and everything under it, if it exists. */
  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
