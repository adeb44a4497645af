/**
 * JVM Flight Recorder events of the engine, category "Strata": flushes ({@code strata.Flush}),
 * merges ({@code strata.Merge}), write stalls ({@code strata.WriteStall}), seals ({@code
 * strata.Seal}), waits for the I/O budget ({@code strata.ThrottleWait}), forces of the log
 * ({@code strata.LogForce}) and opens ({@code strata.Recovery}). Each is written once per such
 * step, never per record, and only while a recording enables it. Print them from a recording with
 * {@code jfr print --categories Strata recording.jfr}.
 */
package org.strata.lsm.events;
