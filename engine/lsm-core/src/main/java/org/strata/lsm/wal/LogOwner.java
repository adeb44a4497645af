package org.strata.lsm.wal;

import java.nio.file.Path;
import java.util.UUID;

/**
 * Who a log belongs to, as the opener knows it: the directory of the store or dataset partition
 * that owns the log, and the log's id as that owner recorded it (in its {@code MANIFEST}), or null
 * when the owner has recorded none yet (a new store, a store written before logs had ids, or a
 * reader that does not know). A log whose catalogue names another id is another store's log and is
 * never replayed; with no id recorded, a catalogue is taken as this owner's only if it names this
 * owner's directory.
 *
 * @param id the log id the owner recorded, or null
 * @param dir the owner's directory, absolute
 */
public record LogOwner(UUID id, Path dir) {
  public LogOwner {
    dir = dir.toAbsolutePath().normalize();
  }

  /** An owner that has recorded no log id (yet). */
  public static LogOwner withoutId(Path dir) {
    return new LogOwner(null, dir);
  }
}
