package org.strata.lsm.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JVM Flight Recorder event for one write stall of a store, index or dataset partition: from
 * the moment the first writer had to wait for its cause to the moment a writer was admitted again
 * (or the cause changed), as {@code stats} counts stalls.
 */
@Name(WriteStallEvent.NAME)
@Label("Write Stall")
@Category("Strata")
@StackTrace(false)
@Description("Writers waited: every memory component full, or merges lagging behind")
public final class WriteStallEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "strata.WriteStall";

  /** The store's, index's or partition's directory name. */
  @Label("Store")
  public String store;

  /** The cause as JSON names it ({@link org.strata.lsm.StallCause#jsonName()}). */
  @Label("Cause")
  public String cause;
}
