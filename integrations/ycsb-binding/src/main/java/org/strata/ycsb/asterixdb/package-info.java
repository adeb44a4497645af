/**
 * The YCSB binding for AsterixDB as in Luo &amp; Carey's setup ({@link
 * org.strata.ycsb.asterixdb.AsterixFeedBinding}): writes go as ADM records into an AsterixDB
 * socket feed, reads through the HTTP query service ({@link
 * org.strata.ycsb.asterixdb.QueryService}, which the AsterixDB extension's tools use as well).
 */
package org.strata.ycsb.asterixdb;
