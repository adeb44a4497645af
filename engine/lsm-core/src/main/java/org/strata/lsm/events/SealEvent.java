package org.strata.lsm.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JVM Flight Recorder event for one seal: the active memory component of a store or index
 * stops taking writes and a new one starts; its duration is the switch under the log's switch
 * lock. The sealed component is flushed later ({@link FlushEvent} with the same memory component
 * id).
 */
@Name(SealEvent.NAME)
@Label("Seal")
@Category("Strata")
@StackTrace(false)
@Description("The active memory component sealed and a new one started")
public final class SealEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "strata.Seal";

  /** The sealed memory component's id. */
  @Label("Memory Component")
  public long memoryComponent;

  /** Keys in the sealed component. */
  @Label("Entries")
  public long entries;

  /** Bytes the sealed component holds (its arena bytes). */
  @Label("Bytes")
  @DataAmount
  public long bytes;

  /** True if it was sealed because it was full; false if asked (a flush, close, or group). */
  @Label("Full")
  public boolean full;
}
