package org.strata.peers;

import java.util.Locale;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.CompactionStyle;
import org.rocksdb.LRUCache;
import org.rocksdb.CompressionType;
import org.rocksdb.Options;
import org.rocksdb.RateLimiter;
import org.rocksdb.Statistics;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.StoreConfig;

/**
 * How a Strata configuration maps to RocksDB options (docs/compare.md lists every line):
 *
 * <ul>
 *   <li>memory component size and count: {@code write_buffer_size}, {@code
 *       max_write_buffer_number};
 *   <li>{@code io.write-rate-limit}: a {@code RateLimiter} of that many bytes per second, which
 *       RocksDB charges for flush and compaction writes (none while loading);
 *   <li>{@code io.force-bytes}: {@code bytes_per_sync};
 *   <li>log: the WAL on, with no sync per write (our {@code group}); off while loading, as
 *       Strata's load runs with durability {@code unlogged};
 *   <li>no compression, at any level;
 *   <li>{@code max_bytes_for_level_base} and {@code target_file_size_base} scaled to the memtable
 *       as RocksDB's defaults (256 MB and 64 MB) are to its 64 MB memtable: 4 and 1 memtables;
 *   <li>{@code page-cache.size}: an LRU block cache of that size in the {@code
 *       BlockBasedTableConfig}, and a Bloom filter with the bits per key Strata's filters get
 *       from {@code bloom-filter.false-positive-rate} (-ln p / (ln 2)^2: 9.59 for the default 1%);
 *   <li>compaction style leveled or universal, every other option at RocksDB's default.
 * </ul>
 *
 * @param store the Strata store configuration to map
 * @param compaction {@code leveled} or {@code universal}
 */
public record RocksDbMapping(StoreConfig store, String compaction) {

  /** The compaction styles a comparison may name. */
  public static final java.util.List<String> STYLES = java.util.List.of("leveled", "universal");

  public RocksDbMapping {
    if (!STYLES.contains(compaction)) {
      throw new IllegalArgumentException("rocksdb compaction '" + compaction + "' is not one of "
          + STYLES);
    }
  }

  /** {@code max_bytes_for_level_base}: 4 memtables, as 256 MB is to RocksDB's 64 MB default. */
  public long maxBytesForLevelBase() {
    return 4 * store.memoryComponent().size().bytes();
  }

  /** {@code target_file_size_base}: 1 memtable, as 64 MB is to RocksDB's 64 MB default. */
  public long targetFileSizeBase() {
    return store.memoryComponent().size().bytes();
  }

  /**
   * Bloom filter bits per key: what Strata's filters use for the configured false-positive rate.
   */
  public double bloomBitsPerKey() {
    double ln2 = Math.log(2);
    return -Math.log(store.bloomFilter().falsePositiveRate()) / (ln2 * ln2);
  }

  /** The block cache: LRU, of {@code page-cache.size} bytes. The caller closes it. */
  public Cache blockCache() {
    return new LRUCache(store.pageCache().size().bytes());
  }

  /** The Bloom filter policy ({@link #bloomBitsPerKey()}, full filters). The caller closes it. */
  public BloomFilter bloomFilter() {
    return new BloomFilter(bloomBitsPerKey(), false);
  }

  /**
   * Options for a phase, with {@code statistics} attached, the block cache and Bloom filter in its
   * table format, and, when {@code throttled} and a write-rate limit is set, {@code limiter}. The
   * caller closes what it passes in and the options.
   */
  public Options options(boolean throttled, long memtableBytes, Statistics statistics,
      RateLimiter limiter, Cache blockCache, BloomFilter filter) {
    Options o = new Options()
        .setCreateIfMissing(true)
        .setWriteBufferSize(memtableBytes)
        .setMaxWriteBufferNumber(store.memoryComponent().count())
        .setBytesPerSync(store.io().forceBytes().bytes())
        .setCompressionType(CompressionType.NO_COMPRESSION)
        .setBottommostCompressionType(CompressionType.NO_COMPRESSION)
        .setMaxBytesForLevelBase(maxBytesForLevelBase())
        .setTargetFileSizeBase(targetFileSizeBase())
        .setCompactionStyle(compaction.equals("leveled") ? CompactionStyle.LEVEL
            : CompactionStyle.UNIVERSAL)
        .setStatistics(statistics)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(blockCache)
            .setFilterPolicy(filter));
    if (throttled && limiter != null) {
      o.setRateLimiter(limiter);
    }
    return o;
  }

  /** The rate limiter of the I/O budget, or null if the configuration sets none. */
  public RateLimiter limiter() {
    return store.io().writeRateLimit().bytes() > 0
        ? new RateLimiter(store.io().writeRateLimit().bytes()) : null;
  }

  /** One line for reports. */
  public String describe() {
    return String.format(Locale.ROOT, "RocksDB %s compaction: write_buffer_size %s x %d,"
            + " rate limiter %s, bytes_per_sync %s, WAL without sync, no compression,"
            + " max_bytes_for_level_base %s, target_file_size_base %s, LRU block cache %s,"
            + " Bloom filter %.2f bits/key", compaction,
        store.memoryComponent().size(), store.memoryComponent().count(),
        store.io().writeRateLimit().bytes() == 0 ? "none"
            : store.io().writeRateLimit() + "/s",
        store.io().forceBytes(), ByteSize.format(maxBytesForLevelBase()),
        ByteSize.format(targetFileSizeBase()), store.pageCache().size(), bloomBitsPerKey());
  }
}
