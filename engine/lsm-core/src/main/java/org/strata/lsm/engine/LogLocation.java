package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.wal.LogCatalog;
import org.strata.lsm.wal.LogOwner;
import org.strata.lsm.wal.LogScan;

/**
 * Where the log of a store or dataset partition is, the one place that decides it (docs/format.md,
 * "Where the log is"). The configured directory is {@code log.dir} resolved against the owner's
 * directory (never the working directory), or {@code <owner>/wal}. The owner's manifest records the
 * log's id and the directory it was last opened in; when the configuration names another
 * directory, the log is looked for in both:
 *
 * <ul>
 *   <li>found in the configured directory only: the log was moved there; it is opened there;
 *   <li>found in the recorded directory only, holding no operation above the flushed sequence
 *       number: the log is started afresh in the configured directory, and the old one is removed
 *       once the open has succeeded (this is how a log is moved: flush, close, reopen with the new
 *       {@code log.dir});
 *   <li>found in the recorded directory only, holding unflushed operations: refused, naming both;
 *   <li>found in both: refused, naming both;
 *   <li>found in neither: refused, naming both, unless the recovery mode accepts losses.
 * </ul>
 */
public final class LogLocation {
  private static final Logger LOG = LogManager.getLogger(LogLocation.class);

  private LogLocation() {}

  /**
   * Where to open a log.
   *
   * @param dir the log directory to open
   * @param owner who opens it, with the id it must have (null id: a new log, or a log whose
   *     owner recorded none)
   * @param stale a directory holding this owner's old, fully flushed log, to remove once the open
   *     has succeeded, or null
   */
  record Located(Path dir, LogOwner owner, Path stale) {}

  /**
   * The configured log directory of the store or partition in {@code ownerDir}: {@code log.dir}
   * resolved against {@code ownerDir}, or {@code <ownerDir>/wal}; absolute and normalized.
   */
  public static Path configured(Path ownerDir, StoreConfig config) {
    String d = config.log().dir();
    Path base = ownerDir.toAbsolutePath().normalize();
    return d == null ? base.resolve("wal") : base.resolve(d).normalize();
  }

  /**
   * Whether the index in {@code indexDir} has a manifest written before logs had ids (so its log's
   * place was never recorded), as opposed to none or one that records its log.
   */
  public static boolean writtenBeforeLogIds(Path indexDir) {
    try {
      Manifest m = Manifest.read(indexDir);
      return m != null && m.logId() == null;
    } catch (IOException | RuntimeException e) {
      return false; // the open reports a damaged manifest itself
    }
  }

  /**
   * Decides where the log of {@code ownerDir} is (see the class comment).
   *
   * @param recordedId the log id the owner's manifest holds, or null
   * @param recordedDir the log directory the owner's manifest holds, or null
   * @param flushedLsn every operation up to this sequence number is in the owner's disk components
   * @param savedConfig the saved configuration file the configured directory comes from, or null
   *     when the opener gave a configuration: only a given configuration may move a log; a saved
   *     one that names another directory than the recorded one is refused as damaged
   * @throws CorruptionException when the log is in the wrong place, naming both directories
   * @throws InvalidConfigurationException when {@code log.dir} names another directory than the
   *     log is in and the log cannot move there
   */
  static Located locate(Path ownerDir, Path configured, UUID recordedId, String recordedDir,
      long flushedLsn, LogRecoveryMode mode, FileIo io, Path savedConfig) throws IOException {
    Path owner = ownerDir.toAbsolutePath().normalize();
    if (recordedId == null) {
      return new Located(configured, LogOwner.withoutId(owner), null);
    }
    LogOwner withId = new LogOwner(recordedId, owner);
    Path recorded = recordedDir == null ? configured : owner.resolve(recordedDir).normalize();
    if (recorded.equals(configured)) {
      refuseCopy(owner, configured, recordedId, io);
      return new Located(configured, withId, null);
    }
    boolean inConfigured = holds(configured, recordedId, io);
    boolean inRecorded = holds(recorded, recordedId, io);
    if (savedConfig != null && !inConfigured) {
      throw InvalidConfigurationException.keyed("log.dir", savedConfig + " names " + configured
          + ", but " + owner + " last opened its log in " + recorded + (inRecorded ? ", which"
          + " holds it" : "") + ": the saved configuration is damaged or was edited; nothing was"
          + " opened or changed. To move the log, open with a configuration (--config) naming"
          + " the new log.dir; to keep it, put " + recorded + " back in " + savedConfig);
    }
    if (inConfigured && inRecorded) {
      throw new CorruptionException(configured.resolve(LogCatalog.FILE), -1, "both " + configured
          + " (the configured log.dir) and " + recorded + " (where " + owner + " last opened its"
          + " log) hold its log " + recordedId + "; remove the stale copy, keeping the one the"
          + " store last wrote, and open again");
    }
    if (inConfigured) {
      refuseCopy(owner, configured, recordedId, io);
      LOG.info("the log of {} was moved from {} to {}", owner, recorded, configured);
      return new Located(configured, withId, null);
    }
    if (inRecorded) {
      LogScan old = LogScan.read(recorded, flushedLsn, io, withId);
      long unflushed = 0;
      for (LogScan.Segment s : old.segments()) {
        if (s.usable() && s.lastLsn() > flushedLsn) {
          unflushed += s.operations();
        }
      }
      if (unflushed > 0 || old.logFault() != null || old.damages().stream()
          .anyMatch(LogScan.Damage::losesOperations)) {
        throw InvalidConfigurationException.keyed("log.dir", "the configuration names "
            + configured + ", but the log of " + owner + " is in " + recorded + " and holds"
            + " writes not yet in disk components (" + unflushed + " operations above sequence"
            + " number " + flushedLsn + (old.logFault() != null || unflushed == 0 ? ", or it is"
            + " damaged" : "") + "); nothing was opened or changed. Open with log.dir "
            + recorded + " (its writes are replayed), then move the log: close the store"
            + " cleanly (which flushes) and open it with the new log.dir, or run strata move-log");
      }
      LOG.info("log.dir of {} changed from {} to {}; its old log holds nothing unflushed, so a"
          + " new log starts in {} and the old one is removed", owner, recorded, configured,
          configured);
      return new Located(configured, LogOwner.withoutId(owner), recorded);
    }
    String missing = "the log of " + owner + " (log " + recordedId + ") is in neither "
        + configured + " (the configured log.dir) nor " + recorded + " (where it was last"
        + " opened)";
    if (mode == LogRecoveryMode.SKIP_CORRUPTED || mode == LogRecoveryMode.POINT_IN_TIME) {
      if (!Files.exists(configured.resolve(LogCatalog.FILE))) {
        LOG.error("{}; log.recovery-mode {} opens the store with a new log: the writes that were"
            + " not in disk components are lost", missing, mode.configName());
        return new Located(configured, LogOwner.withoutId(owner), null);
      }
    }
    if (recordedDir != null && Files.exists(configured.resolve(LogCatalog.FILE))) {
      // Another log is in the configured directory: the scan names it as foreign.
      return new Located(configured, withId, null);
    }
    throw new CorruptionException(recorded.resolve(LogCatalog.FILE), -1, missing + "; nothing"
        + " was opened or changed. Point log.dir at the log's directory; to open the store"
        + " without its log, losing the writes not in disk components, set log.recovery-mode to"
        + " skip-corrupted");
  }

  /**
   * How an owner records its log directory in its manifest: relative to the owner's directory when
   * the log is inside it (so a store copied or moved with its log stays whole), else absolute.
   */
  static String recordedForm(Path ownerDir, Path logDir) {
    Path owner = ownerDir.toAbsolutePath().normalize();
    Path log = logDir.toAbsolutePath().normalize();
    return log.startsWith(owner) ? owner.relativize(log).toString() : log.toString();
  }

  /**
   * Refuses to open, for {@code owner}, a log outside its directory whose catalogue names another
   * owner that still exists and records the same log: {@code owner} is then a copy of that store
   * (or partition), and the log is the original's. A log whose owner directory is gone was moved
   * with its store and is taken (its catalogue then names the new owner).
   */
  private static void refuseCopy(Path owner, Path logDir, UUID id, FileIo io)
      throws IOException {
    if (logDir.startsWith(owner) || !Files.isDirectory(logDir)) {
      return;
    }
    LogCatalog c;
    try {
      c = LogCatalog.read(logDir, io);
    } catch (CorruptionException e) {
      return; // the scan reports it
    }
    if (c == null || !c.logId().equals(id) || c.owner().equals(owner)
        || !recordsLog(c.owner(), id)) {
      return;
    }
    throw new CorruptionException(logDir.resolve(LogCatalog.FILE), -1, "the log in " + logDir
        + " belongs to " + c.owner() + ", which exists and records this log; " + owner + " is a"
        + " copy of it, and replaying the original's log into the copy would mix the two."
        + " Give the copy its own log.dir (the copy then starts with an empty log, so flush the"
        + " original before copying it), or open the original; nothing was opened or changed");
  }

  /** Whether the store (or a dataset partition's index) in {@code dir} records log {@code id}. */
  private static boolean recordsLog(Path dir, UUID id) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    if (recordedId(dir) != null && id.equals(recordedId(dir))) {
      return true;
    }
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isDirectory(p) && id.equals(recordedId(p))) {
          return true;
        }
      }
    }
    return false;
  }

  private static UUID recordedId(Path indexDir) {
    try {
      Manifest m = Manifest.read(indexDir);
      return m == null ? null : m.logId();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Whether {@code dir} holds a log catalogue with id {@code id}. */
  private static boolean holds(Path dir, UUID id, FileIo io) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    LogCatalog c;
    try {
      c = LogCatalog.read(dir, io);
    } catch (CorruptionException e) {
      return false;
    }
    return c != null && c.logId().equals(id);
  }

  /**
   * Removes an old, fully flushed log from {@code dir} once its owner has a new one: its segments,
   * catalogue and lock file (under the lock, so never while something has it open). Failures are
   * logged; the files are then left, and never read again by this owner.
   */
  @SuppressWarnings("try") // the lock is held for the scope of the try, not used in it
  static void removeStale(Path dir, FileIo io) {
    try (DirectoryLock lock = DirectoryLock.acquire(dir, "log directory " + dir + " is in use")) {
      try (Stream<Path> s = Files.list(dir)) {
        for (Path p : (Iterable<Path>) s::iterator) {
          String n = p.getFileName().toString();
          if ((n.startsWith("wal-") && n.endsWith(".log")) || n.equals(LogCatalog.FILE)
              || n.equals(LogCatalog.FILE + ".tmp")) {
            io.delete(p);
          }
        }
      }
      io.forceDirectory(dir);
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot remove the old log in {}: {}", dir, e.toString());
    }
  }
}
