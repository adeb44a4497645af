/**
 * Peers of Strata measured by the same two-phase runner (same driver, keys, value bytes, arrival
 * process and sampler): RocksDB through rocksdbjni ({@link org.strata.peers.RocksDbTarget}) and a
 * standalone Hyracks 0.3.8 LSM B+-tree with Hyracks' own merge policy, scheduler and page-write
 * throttle ({@link org.strata.peers.HyracksTarget}); and {@code strata compare}, which runs one
 * two-phase configuration against every system a configuration lists ({@link
 * org.strata.peers.CompareRunner}). Nothing in lsm-core depends on this package.
 */
package org.strata.peers;
