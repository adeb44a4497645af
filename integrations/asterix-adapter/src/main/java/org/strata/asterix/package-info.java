/**
 * Strata inside Apache Hyracks 0.3.8 and AsterixDB 0.9.8: {@link
 * org.strata.asterix.StrataMergePolicyFactory} runs any Strata merge policy as a Hyracks {@code
 * ILSMMergePolicy}, {@link org.strata.asterix.StrataIoScheduler} runs Strata's merge schedulers
 * (single-thread, fair, greedy) over Hyracks' flushes and merges, and {@link
 * org.strata.asterix.StrataPageWriteCallbackFactory} applies Strata's I/O throttle and forced
 * writes to the pages Hyracks' flushes and merges write. {@link
 * org.strata.asterix.HyracksMergeContext} is the SPI's {@code MergeContext} over a Hyracks index's
 * disk components. This module bridges the SPI to Hyracks; the AsterixDB extension ({@code
 * org.strata.asterixdb}) installs it in a cluster, and docs/asterixdb.md explains how to deploy
 * it.
 */
package org.strata.asterix;
