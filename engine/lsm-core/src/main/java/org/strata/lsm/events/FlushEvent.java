package org.strata.lsm.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JVM Flight Recorder event for one flush: a sealed memory component written to disk as one or
 * more disk components, or retired (TRIAD-MEM carried every key on; no file). Its duration is the
 * flush's, from holding the log to the durable manifest. Recorded whenever a recording enables
 * {@value #NAME} (the JDK's {@code default} and {@code profile} settings do).
 */
@Name(FlushEvent.NAME)
@Label("Flush")
@Category("Strata")
@StackTrace(false)
@Description("A sealed memory component written to disk (or retired to memory by TRIAD-MEM)")
public final class FlushEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "strata.Flush";

  /** The store's, index's or partition index's directory name. */
  @Label("Store")
  public String store;

  /** The flushed memory component's id. */
  @Label("Memory Component")
  public long memoryComponent;

  /** The flush ordinal of the disk components written; -1 for a retired component. */
  @Label("Component Id")
  public long componentId;

  /** Entries of the memory component. */
  @Label("Entries")
  public long entries;

  /** Bytes of the files written. */
  @Label("Bytes Written")
  @DataAmount
  public long bytes;

  /** Files written: 1, several when the policy cut the flush, 0 when retired. */
  @Label("Files")
  public int files;
}
