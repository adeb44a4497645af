/**
 * JMH microbenchmarks of the engine's hot paths on real files (built only with {@code -Pbench}):
 * pages ({@link org.strata.bench.PageBench}), Bloom filters ({@link
 * org.strata.bench.BloomFilterBench}), the page cache ({@link org.strata.bench.PageCacheBench}),
 * memory-component inserts ({@link org.strata.bench.MemoryComponentInsertBench}), log appends
 * ({@link org.strata.bench.WalAppendBench}), the merge cursor ({@link
 * org.strata.bench.MergeBench}), the whole write path ({@link org.strata.bench.StorePutBench}),
 * point lookups and range scans ({@link org.strata.bench.PointLookupBench}, {@link
 * org.strata.bench.RangeScanBench}) and the dataset codecs ({@link
 * org.strata.bench.DatasetCodecBench}). Fixtures ({@link org.strata.bench.BenchData}, {@link
 * org.strata.bench.StoreFixture}) build seeded, realistic inputs; docs/performance.md gives the
 * command lines and figures.
 */
package org.strata.bench;
