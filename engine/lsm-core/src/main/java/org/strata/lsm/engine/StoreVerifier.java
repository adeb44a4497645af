package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.StrataException;
import org.strata.lsm.component.ComponentVerifier;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.LogConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.wal.LogOwner;
import org.strata.lsm.wal.LogVerifier;

/**
 * Verifies a closed store, reading every file kind and changing nothing: {@code config.json}
 * (parses and validates, plug-ins included), the {@code MANIFEST} (checksum), every component it
 * lists ({@link ComponentVerifier}; a multi-file run's files must have ascending, disjoint key
 * ranges), component files it does not list and leftover {@code *.tmp} files (notes: the next open
 * deletes them), and every log segment ({@link LogVerifier}). Opens nothing for writing, truncates
 * nothing and creates nothing, not even the lock file (see {@link
 * DirectoryLock#acquireSharedIfPresent}).
 */
public final class StoreVerifier {
  private StoreVerifier() {}

  /**
   * What verification found.
   *
   * @param faults problems, each naming the file (and offset where there is one); empty when ok
   * @param notes what is not a fault but worth knowing (a torn log tail, leftovers of a crash)
   * @param componentsChecked components verified
   * @param entriesChecked entries in them
   * @param logSegmentsChecked log segments read
   * @param logRecordsChecked intact records in them
   */
  public record VerifyReport(List<String> faults, List<String> notes, int componentsChecked,
      long entriesChecked, int logSegmentsChecked, long logRecordsChecked) {
    public VerifyReport {
      faults = List.copyOf(faults);
      notes = List.copyOf(notes);
    }

    public boolean ok() {
      return faults.isEmpty();
    }
  }

  /**
   * Verifies the store in {@code dir}, its log included.
   *
   * @throws IllegalArgumentException if {@code dir} is missing or holds no store (no {@code
   *     config.json} and no {@code MANIFEST}); nothing is created then either
   * @throws StrataException if a process has the store open
   */
  public static VerifyReport verify(Path dir) {
    return verify(dir, true);
  }

  /**
   * Verifies one index directory of a dataset partition: as {@link #verify(Path)}, but without a
   * log, since the partition's shared log serves the index (the caller checks it).
   */
  public static VerifyReport verifyIndex(Path dir) {
    return verify(dir, false);
  }

  @SuppressWarnings("try") // the lock is held for the scope of the try, not used in it
  private static VerifyReport verify(Path dir, boolean withLog) {
    checkIsStore(dir);
    try (DirectoryLock lock = DirectoryLock.acquireSharedIfPresent(dir, "store " + dir
        + " is open in another process (or in this one); close it before verifying")) {
      return verifyLocked(dir, withLog);
    } catch (IOException e) {
      throw new StrataException("cannot verify " + dir + ": " + e, e);
    }
  }

  /**
   * The flushed sequence number in {@code dir}'s manifest, 0 if it has none.
   *
   * @throws IOException if the manifest cannot be read, or a {@link
   *     org.strata.lsm.CorruptionException} if it is corrupt
   */
  public static long flushedLsn(Path dir) throws IOException {
    Manifest m = Manifest.read(dir);
    return m == null ? 0 : m.flushedLsn();
  }

  /**
   * The log an index's manifest records: its id and directory, each null when the manifest records
   * none (or cannot be read: its fault is reported by {@link #verifyIndex}).
   */
  public record RecordedLog(java.util.UUID id, String dir) {}

  /** The log {@code dir}'s manifest records (see {@link RecordedLog}). */
  public static RecordedLog recordedLog(Path dir) {
    try {
      Manifest m = Manifest.read(dir);
      return m == null ? new RecordedLog(null, null) : new RecordedLog(m.logId(), m.logDir());
    } catch (IOException | RuntimeException e) {
      return new RecordedLog(null, null);
    }
  }

  /** Refuses a directory that is missing or holds no store, before anything is read. */
  static void checkIsStore(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException(dir + " is not a store: " + (Files.exists(dir)
          ? "it is not a directory" : "it does not exist"));
    }
    if (!Files.exists(dir.resolve(LsmTree.CONFIG_FILE)) && !Files.exists(
        dir.resolve(Manifest.FILE))) {
      throw new IllegalArgumentException(dir + " is not a store: it holds neither "
          + LsmTree.CONFIG_FILE + " nor " + Manifest.FILE);
    }
  }

  private static VerifyReport verifyLocked(Path dir, boolean withLog) {
    List<String> faults = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    StoreConfig config = readConfig(dir, faults, notes);
    Manifest m = null;
    boolean manifestOk = true;
    try {
      m = Manifest.read(dir);
    } catch (IOException | RuntimeException e) {
      manifestOk = false;
      faults.add(dir.resolve(Manifest.FILE) + ": " + (e.getMessage() != null ? e.getMessage()
          : e.toString()));
    }
    ComponentsChecked checked = new ComponentsChecked();
    if (m != null) {
      PageCache noCache = new PageCache(0);
      for (Manifest.RunEntry run : m.runs()) {
        verifyRun(dir, config, m, run, noCache, checked, faults);
      }
    }
    if (manifestOk) {
      leftovers(dir, checked.listed, faults, notes);
      if (withLog) {
        logSegmentLeftovers(LogLocation.configured(dir, config), checked.listed, faults, notes);
      }
    }
    int segments = 0;
    long records = 0;
    if (withLog) {
      LogVerifier.Result log = verifyLog(dir, config, m, faults);
      faults.addAll(log.faults());
      notes.addAll(log.notes());
      segments = log.segments();
      records = log.records();
    }
    return new VerifyReport(faults, notes, checked.count, checked.entries, segments, records);
  }

  /** The disk components verified so far: how many, their entries, and every file listed. */
  private static final class ComponentsChecked {
    final Set<String> listed = new HashSet<>();
    int count;
    long entries;
  }

  /** Verifies the files of one run of the manifest, and that their key ranges do not overlap. */
  private static void verifyRun(Path dir, StoreConfig config, Manifest m, Manifest.RunEntry run,
      PageCache noCache, ComponentsChecked checked, List<String> faults) {
    checked.listed.addAll(run.files());
    byte[] prevMax = null;
    for (String f : run.files()) {
      Path p = dir.resolve(f);
      if (!Files.exists(p)) {
        faults.add(p + ": listed in the manifest but missing");
        continue;
      }
      DiskComponent c;
      try {
        // A CL-SSTable (TRIAD-LOG): the verifier reads every entry, so every log record its
        // index points at is read and its checksum checked.
        c = ComponentFiles.isLogIndexFile(f)
            ? DiskComponent.openLogBacked(p, checked.count, noCache,
                LogLocation.configured(dir, config)
                    .resolve(ComponentFiles.logSegmentName(ComponentFiles.fileNumber(f))))
            : DiskComponent.open(p, checked.count, noCache);
      } catch (RuntimeException e) {
        faults.add(e.getMessage());
        continue;
      }
      try {
        Recovery.checkIdentity(dir, m, f, c);
      } catch (RuntimeException e) {
        faults.add(e.getMessage());
      }
      try {
        ComponentVerifier.Result r = ComponentVerifier.verify(c);
        faults.addAll(r.faults());
        checked.entries += r.entries();
        checked.count++;
        if (prevMax != null && Arrays.compareUnsigned(prevMax, c.meta().minKey()) >= 0) {
          faults.add(p + ": key range overlaps the previous file of its run");
        }
        prevMax = c.meta().maxKey();
      } finally {
        c.release();
      }
    }
  }

  /**
   * Verifies the log where the configuration puts it, adding a fault if the store last opened it
   * elsewhere.
   */
  private static LogVerifier.Result verifyLog(Path dir, StoreConfig config, Manifest m,
      List<String> faults) {
    Path logDir = LogLocation.configured(dir, config);
    if (m != null && m.logDir() != null && !dir.toAbsolutePath().normalize()
        .resolve(m.logDir()).normalize().equals(logDir)) {
      faults.add(dir.resolve(LsmTree.CONFIG_FILE) + ": log.dir is " + logDir + " but the store"
          + " last opened its log in " + m.logDir() + " (see docs/format.md, \"Where the log"
          + " is\"); the log was checked where the configuration says");
    }
    return LogVerifier.verify(logDir, m == null ? 0 : m.flushedLsn(),
        config.log().recoveryMode(), new LogOwner(m == null ? null : m.logId(), dir));
  }

  /**
   * The store's configuration, validated as an open would; on a fault, the defaults (so that the
   * log is still looked for where it is by default) and a note saying so.
   */
  private static StoreConfig readConfig(Path dir, List<String> faults, List<String> notes) {
    Path file = dir.resolve(LsmTree.CONFIG_FILE);
    if (!Files.exists(file)) {
      notes.add(file + ": missing; an open uses the default configuration");
      return StoreConfig.defaults();
    }
    try {
      StoreConfig c = StoreConfigJson.read(file);
      Plugins.mergePolicy(c.mergePolicy());
      Plugins.mergeScheduler(c.mergeScheduler()).close();
      return c;
    } catch (StrataException | IllegalArgumentException e) {
      faults.add(file + ": " + e.getMessage());
      notes.add("the configuration is unreadable, so the log was checked in the default place"
          + " with the default recovery mode");
      return StoreConfig.defaults().withLog(
          LogConfig.defaults().withRecoveryMode(LogRecoveryMode.TOLERATE_TORN_TAIL));
    }
  }

  /** CL-SSTable segments ({@code .clog}) whose index file the manifest does not list. */
  private static void logSegmentLeftovers(Path logDir, Set<String> listed, List<String> faults,
      List<String> notes) {
    if (!Files.isDirectory(logDir)) {
      return;
    }
    try (Stream<Path> s = Files.list(logDir)) {
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        String n = p.getFileName().toString();
        if (ComponentFiles.isLogSegmentFile(n) && !listed.contains(
            ComponentFiles.logIndexName(ComponentFiles.fileNumber(n)))) {
          notes.add(p + ": a CL-SSTable log segment no listed component uses (left by an"
              + " interrupted flush or merge); the next open deletes it");
        }
      }
    } catch (IOException e) {
      faults.add(logDir + ": cannot list the directory: " + e);
    }
  }

  /** Component files the manifest does not list and leftover temporary files. */
  private static void leftovers(Path dir, Set<String> listed, List<String> faults,
      List<String> notes) {
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        String n = p.getFileName().toString();
        if (n.endsWith(".tmp")) {
          notes.add(p + ": a temporary file left by an interrupted write; the next open deletes"
              + " it");
        } else if (ComponentFiles.isComponentFile(n) && !listed.contains(n)) {
          notes.add(p + ": a component file the manifest does not list (left by an interrupted"
              + " flush or merge); the next open deletes it");
        }
      }
    } catch (IOException e) {
      faults.add(dir + ": cannot list the directory: " + e);
    }
  }
}
