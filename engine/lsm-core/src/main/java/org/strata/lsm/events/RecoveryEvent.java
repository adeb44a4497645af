package org.strata.lsm.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JVM Flight Recorder event for one open of a store, index or dataset partition: from taking
 * its directory's lock to a recovered tree (manifest read, component files checked, the log
 * replayed into the memory component). A failed open records none.
 */
@Name(RecoveryEvent.NAME)
@Label("Recovery")
@Category("Strata")
@StackTrace(false)
@Description("A store opened: manifest, component files and the log's tail recovered")
public final class RecoveryEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "strata.Recovery";

  /** The store's, index's or partition index's directory name. */
  @Label("Store")
  public String store;

  /** Disk components found. */
  @Label("Disk Components")
  public long diskComponents;

  /**
   * Keys in the memory component after the open: a standalone store's keys replayed from its
   * log (a dataset partition's log is replayed by its dataset after the open).
   */
  @Label("Replayed Entries")
  public long replayedEntries;
}
