package org.strata.lsm.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JVM Flight Recorder event for one wait on an I/O budget ({@code io.write-rate-limit}): a
 * flush or merge (or a writer under a write limit) asked for bytes the budget did not have and
 * slept until it did. Requests the budget granted at once record nothing.
 */
@Name(ThrottleWaitEvent.NAME)
@Label("Throttle Wait")
@Category("Strata")
@StackTrace(false)
@Description("A flush or merge waited for its I/O budget")
public final class ThrottleWaitEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "strata.ThrottleWait";

  /** The bytes asked for. */
  @Label("Bytes")
  @DataAmount
  public long bytes;

  /** True for a flush's request (served before merges'). */
  @Label("Flush")
  public boolean flush;

  /** The budget in bytes per second. */
  @Label("Budget (bytes/s)")
  public long bytesPerSecond;
}
