package org.strata.lsm.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JVM Flight Recorder event for one force of the write-ahead log's current segment (fdatasync
 * of its file): its duration is the force's. One force covers every write appended before it
 * began, whichever writer's thread carries it out.
 */
@Name(LogForceEvent.NAME)
@Label("Log Force")
@Category("Strata")
@StackTrace(false)
@Description("The write-ahead log's segment forced to the device")
public final class LogForceEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "strata.LogForce";

  /** The log directory's name. */
  @Label("Log")
  public String log;

  /** The segment's size when the force began: what it covers. */
  @Label("Segment Bytes")
  @DataAmount
  public long segmentBytes;
}
