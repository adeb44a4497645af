/**
 * JVM Flight Recorder events of the engine, category "Strata": {@link
 * org.strata.lsm.events.FlushEvent} ({@code strata.Flush}), {@link
 * org.strata.lsm.events.MergeEvent} ({@code strata.Merge}) and {@link
 * org.strata.lsm.events.WriteStallEvent} ({@code strata.WriteStall}). They cost nothing unless a
 * recording enables them; each is written once per flush, merge or stall, never per record. Print
 * them from a recording with {@code jfr print --categories Strata recording.jfr}.
 */
package org.strata.lsm.events;
