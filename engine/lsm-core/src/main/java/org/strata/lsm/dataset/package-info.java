/**
 * Datasets as in AsterixDB: records with string fields ({@link
 * org.strata.lsm.dataset.DatasetRecord}, encoded by {@link org.strata.lsm.dataset.RecordCodec}),
 * hash-partitioned ({@link org.strata.lsm.dataset.Partition}, one {@code
 * org.strata.lsm.engine.TreeGroup} each) into a primary LSM B+-tree and secondary LSM B+-trees
 * ({@link org.strata.lsm.dataset.SecondaryIndexSpec}, {@link
 * org.strata.lsm.dataset.SecondaryKey}) kept up to date eagerly or with validation ({@link
 * org.strata.lsm.dataset.SecondaryMaintenance}). {@link org.strata.lsm.dataset.Dataset} is the
 * entry point; {@link org.strata.lsm.dataset.DatasetQueries} holds the reads that span partitions,
 * {@link org.strata.lsm.dataset.FeedParser} and {@link org.strata.lsm.dataset.PlainRecords} parse
 * ingestion lines, {@link org.strata.lsm.dataset.DatasetConfig}/{@link
 * org.strata.lsm.dataset.DatasetConfigJson} its configuration ({@code dataset.json}) and {@link
 * org.strata.lsm.dataset.DatasetVerifier} its offline check. docs/datasets.md is the user's view.
 */
package org.strata.lsm.dataset;
