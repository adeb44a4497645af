package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.component.ComponentWriter;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.Directories;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.WritableFile;

/**
 * The disk component files of one index, shared by flush and merge: a component is written under
 * a temporary name ({@code <number>.cmp.tmp}) through the index's I/O throttle, forced (every
 * {@code io.force-bytes} and at the end), renamed atomically to {@code <number>.cmp}, and opened.
 * Only the rename makes a file a component; recovery deletes temporary files and components the
 * manifest does not list (docs/format.md).
 *
 * <p>TRIAD-LOG: a CL-SSTable is an index file {@code <number>.cli} (the component format, leaf
 * values being log pointers) over a sealed log segment, hard-linked as {@code <number>.clog} in
 * the log directory; both names are written here and deleted with the component.
 */
final class ComponentFiles {
  private static final Logger LOG = LogManager.getLogger(ComponentFiles.class);
  private static final String SUFFIX = ".cmp";
  private static final String LOG_INDEX_SUFFIX = ".cli";
  private static final String LOG_SEGMENT_SUFFIX = ".clog";
  private static final String TEMPORARY = ".tmp";

  private final Path dir;
  /** The log directory, where CL-SSTables' segments are; null for a tree without its own log. */
  private final Path logDir;
  private final FileIo io;
  private final PageCache cache;
  private final IoThrottle throttle;
  private final long forceBytes;
  private final int pageSize;
  private final FilterRates filterRates;
  private final boolean keySketches;
  private final Clock clock;

  /**
   * @param forceBytes force a file every this many bytes ({@code io.force-bytes}; 0: at the end)
   * @param pageSize target page size ({@code io.page-size})
   * @param filterRates each new component's Bloom filter rate, by its level ({@code bloom-filter})
   * @param keySketches whether components carry a key sketch page (the store's merge policy reads
   *     sketches)
   */
  ComponentFiles(Path dir, Path logDir, FileIo io, PageCache cache, IoThrottle throttle,
      long forceBytes, int pageSize, FilterRates filterRates, boolean keySketches,
      Clock clock) {
    this.dir = dir;
    this.logDir = logDir;
    this.io = io;
    this.cache = cache;
    this.throttle = throttle;
    this.forceBytes = forceBytes;
    this.pageSize = pageSize;
    this.filterRates = filterRates;
    this.keySketches = keySketches;
    this.clock = clock;
  }

  /** The file name of component file {@code fileNumber}. */
  static String fileName(long fileNumber) {
    return String.format(Locale.ROOT, "%012d%s", fileNumber, SUFFIX);
  }

  /** The file name of the index file of CL-SSTable {@code fileNumber} (TRIAD-LOG). */
  static String logIndexName(long fileNumber) {
    return String.format(Locale.ROOT, "%012d%s", fileNumber, LOG_INDEX_SUFFIX);
  }

  /** The file name, in the log directory, of the segment of CL-SSTable {@code fileNumber}. */
  static String logSegmentName(long fileNumber) {
    return String.format(Locale.ROOT, "%012d%s", fileNumber, LOG_SEGMENT_SUFFIX);
  }

  /**
   * True if {@code name} is the name of a component file: a B+-tree ({@code .cmp}) or the index
   * file of a CL-SSTable ({@code .cli}).
   */
  static boolean isComponentFile(String name) {
    return (name.endsWith(SUFFIX) || name.endsWith(LOG_INDEX_SUFFIX)) && name.length() == 16
        && name.substring(0, 12).chars().allMatch(Character::isDigit);
  }

  /** True if {@code name} is the name of a CL-SSTable's index file. */
  static boolean isLogIndexFile(String name) {
    return isComponentFile(name) && name.endsWith(LOG_INDEX_SUFFIX);
  }

  /** True if {@code name} is the name of a CL-SSTable's segment in the log directory. */
  static boolean isLogSegmentFile(String name) {
    return name.endsWith(LOG_SEGMENT_SUFFIX) && name.length() == 17
        && name.substring(0, 12).chars().allMatch(Character::isDigit);
  }

  /** The log directory (where CL-SSTables' segments are), or null for a dataset's index. */
  Path logDir() {
    return logDir;
  }

  /** True if {@code name} is a temporary file of an interrupted flush or merge. */
  static boolean isTemporary(String name) {
    return name.endsWith(TEMPORARY);
  }

  /** The number of component file {@code name}. */
  static long fileNumber(String name) {
    return Long.parseLong(name.substring(0, 12));
  }

  /** How the component files are written, read and deleted. */
  FileIo io() {
    return io;
  }

  /** The page cache the components read through. */
  PageCache cache() {
    return cache;
  }

  /** Opens component file {@code fileNumber}; the caller holds the returned reference. */
  DiskComponent open(long fileNumber) {
    return DiskComponent.open(dir.resolve(fileName(fileNumber)), fileNumber, cache, io);
  }

  /**
   * Opens the component file {@code name} (either kind); the caller holds the returned reference.
   */
  DiskComponent open(String name) {
    long n = fileNumber(name);
    return isLogIndexFile(name) ? openLogIndex(n) : open(n);
  }

  /** Opens CL-SSTable {@code fileNumber} (index and segment); the caller holds the reference. */
  DiskComponent openLogIndex(long fileNumber) {
    if (logDir == null) {
      throw new IllegalStateException("a CL-SSTable needs the index's own log directory");
    }
    return DiskComponent.openLogBacked(dir.resolve(logIndexName(fileNumber)), fileNumber, cache,
        logDir.resolve(logSegmentName(fileNumber)), io);
  }

  /**
   * Starts writing component file {@code fileNumber} under its temporary name.
   *
   * @param minId oldest flush ordinal the component holds
   * @param maxId newest flush ordinal the component holds
   * @param maxLsn highest log sequence number in it
   * @param level the stored level the component goes to (0 for a flush), which sizes its Bloom
   *     filter
   * @param priority true for a flush, whose writes go ahead of merges' on the throttle
   */
  Output create(long fileNumber, long minId, long maxId, long maxLsn, int level, boolean priority)
      throws IOException {
    return create(fileNumber, fileName(fileNumber), minId, maxId, maxLsn, level, priority);
  }

  /**
   * Starts writing the index file of CL-SSTable {@code fileNumber} (a flush's, so with priority)
   * under its temporary name; its {@link Output#install()} opens it with its segment, which must
   * then be linked as {@link #logSegmentName}.
   */
  Output createLogIndex(long fileNumber, long componentId, long maxLsn) throws IOException {
    return create(fileNumber, logIndexName(fileNumber), componentId, componentId, maxLsn, 0,
        true);
  }

  private Output create(long fileNumber, String name, long minId, long maxId, long maxLsn,
      int level, boolean priority) throws IOException {
    Path tmp = dir.resolve(name + TEMPORARY);
    WritableFile f = io.create(tmp);
    ComponentWriter w = new ComponentWriter(f, throttle, forceBytes, pageSize,
        filterRates.falsePositiveRate(level), minId, maxId, maxLsn, clock.currentTimeMillis());
    if (!keySketches) {
      w.withoutKeySketch();
    }
    return new Output(fileNumber, name, tmp, f, priority ? w.withPriority() : w);
  }

  /**
   * A component being written. {@link #finish()} forces and closes the temporary file, {@link
   * #install()} renames it to its final name and opens it; {@link #discard()} removes whatever
   * was written (the temporary or the final file).
   */
  final class Output {
    private final long fileNumber;
    private final String name;
    private final Path tmp;
    private final WritableFile file;
    /**
     * The writer until {@link #finish()}; then null, so its buffers (the 256 KB write buffer, the
     * key hashes for the Bloom filter, the leaf index) are garbage while a merge goes on writing
     * its later outputs: a merge keeps every output it wrote until it installs them all.
     */
    private ComponentWriter writer;
    private long pageCount;
    private boolean finished;
    private boolean renamed;

    private Output(long fileNumber, String name, Path tmp, WritableFile file,
        ComponentWriter writer) {
      this.fileNumber = fileNumber;
      this.name = name;
      this.tmp = tmp;
      this.file = file;
      this.writer = writer;
    }

    private ComponentWriter writer() {
      if (finished) {
        throw new IllegalStateException("component " + tmp + " is already finished");
      }
      return writer;
    }

    /** Appends an entry (keys in ascending order; null value: anti-matter). */
    void add(byte[] key, byte[] value) throws IOException {
      writer().add(key, value);
    }

    /**
     * Adds the current entry of {@code cursor} under {@code key}, its value taken as a slice
     * (not copied out of the cursor's buffer).
     */
    void addCurrent(byte[] key, EntryCursor cursor) throws IOException {
      if (cursor.isAntimatter()) {
        writer().add(key, null);
      } else {
        writer().add(key, 0, key.length, cursor.valueArray(), cursor.valueOffset(),
            cursor.valueLength(), false);
      }
    }

    /** Bytes written so far. */
    long bytesProduced() {
      return writer().bytesProduced();
    }

    /** Pages written (valid after {@link #finish()}). */
    long pageCount() {
      return finished ? pageCount : writer.pageCount();
    }

    /** Whether this output still holds its writer (and so the writer's buffers). */
    boolean holdsWriter() {
      return writer != null;
    }

    /** The temporary file's path, for error messages. */
    Path temporaryPath() {
      return tmp;
    }

    /** Writes the index levels, filter and footer; forces and closes the file. */
    void finish() throws IOException {
      writer().finish();
      pageCount = writer.pageCount();
      finished = true;
      writer = null;
    }

    /** Renames the finished file to its component name and opens it. */
    DiskComponent install() throws IOException {
      if (!finished) {
        throw new IllegalStateException("component " + tmp + " is not finished");
      }
      Directories.atomicRename(io, tmp, dir.resolve(name));
      renamed = true;
      return open(name);
    }

    /** Closes the file if still open and deletes what was written; failures are logged. */
    void discard() {
      try {
        if (!finished) {
          writer.close();
          file.close();
        }
      } catch (IOException e) {
        LOG.warn("cannot close {}: {}", tmp, e.toString());
      }
      Path p = renamed ? dir.resolve(name) : tmp;
      try {
        io.delete(p);
      } catch (IOException e) {
        LOG.warn("cannot delete {}: {}", p, e.toString());
      }
    }
  }
}
