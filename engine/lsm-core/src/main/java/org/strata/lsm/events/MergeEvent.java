package org.strata.lsm.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JVM Flight Recorder event for one merge that ran (completed, cancelled or failed): its inputs,
 * its output and its outcome. Its duration runs from the merge's start to its end, pauses by the
 * merge scheduler included (the merge's own record in {@code stats} also gives the paused time).
 * A metadata-only move is not a merge and records none.
 */
@Name(MergeEvent.NAME)
@Label("Merge")
@Category("Strata")
@StackTrace(false)
@Description("A merge of disk components: inputs, output and outcome")
public final class MergeEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "strata.Merge";

  /** The store's or index's directory name. */
  @Label("Store")
  public String store;

  /** Input disk components. */
  @Label("Input Components")
  public int inputComponents;

  /** Input disk components that were level-0 (flushed) ones. */
  @Label("Level-0 Inputs")
  public int levelZeroInputs;

  /** Pages of the inputs. */
  @Label("Input Pages")
  public long inputPages;

  /** Output files written (0 if every entry was dropped or the merge did not complete). */
  @Label("Output Files")
  public int outputFiles;

  /** Bytes of the output files. */
  @Label("Bytes Written")
  @DataAmount
  public long outputBytes;

  /** The level of the output run (for a routed merge: its deepest). */
  @Label("Output Level")
  public int outputLevel;

  /** {@code ok}, {@code cancelled} or {@code failed: <error>}. */
  @Label("Outcome")
  public String outcome;
}
