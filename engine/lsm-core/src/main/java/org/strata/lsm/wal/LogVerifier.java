package org.strata.lsm.wal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.wal.LogScan.Damage;

/**
 * Checks a write-ahead log without changing it, and says what recovery would do with each bad
 * range: corruption (intact records follow it, so acknowledged writes are at stake) is a fault; a
 * torn tail and bad bytes whose operations are all flushed are notes, unless the recovery mode is
 * {@code absolute-consistency}, which refuses them too. Files an earlier point-in-time recovery set
 * aside are listed as notes.
 */
public final class LogVerifier {
  private LogVerifier() {}

  /**
   * What verification found.
   *
   * @param faults each names the segment file and offset
   * @param notes what is not a fault but worth knowing
   * @param segments segments read
   * @param records intact records in them
   */
  public record Result(List<String> faults, List<String> notes, int segments, long records) {}

  /**
   * Verifies the log in {@code logDir} (a missing directory is an empty log).
   *
   * @param flushedLsn the highest sequence number every reader of the log has in disk components
   * @param mode the recovery mode the store is configured with
   */
  public static Result verify(Path logDir, long flushedLsn, LogRecoveryMode mode) {
    return verify(logDir, flushedLsn, mode, null);
  }

  /**
   * As {@link #verify(Path, long, LogRecoveryMode)}, for the log of {@code owner} (null: the
   * catalogue's id is taken as the log's): a log of another owner, a missing or damaged
   * catalogue, and every segment the catalogue lists that is missing, cut short, longer than
   * sealed or of another log are faults.
   */
  public static Result verify(Path logDir, long flushedLsn, LogRecoveryMode mode,
      LogOwner owner) {
    List<String> faults = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    LogScan scan;
    try {
      scan = LogScan.read(logDir, flushedLsn, org.strata.lsm.io.FileIo.standard(), owner);
    } catch (IOException e) {
      faults.add(logDir + ": the log cannot be read: " + e);
      return new Result(faults, notes, 0, 0);
    }
    if (scan.logFault() != null) {
      faults.add(scan.logFault());
    }
    for (Damage d : scan.damages()) {
      boolean refused = mode == LogRecoveryMode.ABSOLUTE_CONSISTENCY;
      if (d.losesOperations()) {
        faults.add(d.describe() + "; " + whatOpenDoes(mode));
      } else {
        (refused ? faults : notes).add(d.describe() + (refused
            ? "; log.recovery-mode absolute-consistency refuses to open the store"
            : "; an open passes over it"));
      }
    }
    for (Path p : scan.leftovers()) {
      notes.add(p + ": a segment the log's catalogue no longer lists (truncation dropped it and a"
          + " crash came before it was deleted); every operation in it is flushed and the next"
          + " open deletes it");
    }
    for (Path p : scan.pendingSetAside()) {
      notes.add(p + ": a point-in-time recovery was setting it aside when a crash came; the next"
          + " open finishes that");
    }
    for (Path p : scan.setAside()) {
      long size;
      try {
        size = Files.size(p);
      } catch (IOException e) {
        size = -1;
      }
      notes.add(p + ": " + size + " bytes set aside by an earlier point-in-time recovery; not"
          + " replayed (see docs/format.md)");
    }
    for (Path p : scan.unexpected()) {
      notes.add(p + ": named like a log segment but its sequence number does not parse; ignored");
    }
    return new Result(faults, notes, scan.segments().size(), scan.records());
  }

  private static String whatOpenDoes(LogRecoveryMode mode) {
    return switch (mode) {
      case TOLERATE_TORN_TAIL, ABSOLUTE_CONSISTENCY -> "log.recovery-mode " + mode.configName()
          + " refuses to open the store";
      case POINT_IN_TIME -> "log.recovery-mode point-in-time would stop replay here and set the"
          + " rest aside";
      case SKIP_CORRUPTED -> "log.recovery-mode skip-corrupted would skip these bytes and lose"
          + " their operations";
    };
  }
}
