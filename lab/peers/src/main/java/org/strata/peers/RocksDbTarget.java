package org.strata.peers;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BloomFilter;
import org.rocksdb.Cache;
import org.rocksdb.CompactionJobInfo;
import org.rocksdb.FlushJobInfo;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RateLimiter;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;
import org.strata.lsm.config.NamedPlugin;
import org.strata.twophase.CacheCounters;
import org.strata.twophase.GeneratedRecord;
import org.strata.twophase.PhaseSetup;
import org.strata.twophase.SystemUnderTest;
import org.strata.twophase.TargetStats;
import org.strata.twophase.TwoPhaseTarget;

/**
 * RocksDB through rocksdbjni as a system under test: each record's key bytes and raw value bytes
 * are a {@code put}; options come from {@link RocksDbMapping}. Statistics: stall time from the
 * {@code STALL_MICROS} ticker (delays and stops) and {@code rocksdb.is-write-stopped}; disk
 * components are the SST files of every level ({@code rocksdb.num-files-at-level<N>}); bytes
 * flushed and compacted from {@code FLUSH_WRITE_BYTES} and {@code COMPACT_WRITE_BYTES}; pending
 * merge bytes from {@code rocksdb.estimate-pending-compaction-bytes}; space from {@code
 * rocksdb.total-sst-files-size}.
 */
public final class RocksDbTarget implements TwoPhaseTarget {
  static {
    RocksDB.loadLibrary();
  }

  private final String label;
  private final RocksDbMapping mapping;
  private final long loadMemtable;

  /**
   * @param label the label in a comparison
   * @param mapping the options
   * @param loadMemtable memtable bytes while loading
   */
  public RocksDbTarget(String label, RocksDbMapping mapping, long loadMemtable) {
    this.label = label;
    this.mapping = mapping;
    this.loadMemtable = loadMemtable;
  }

  /** The RocksDB release the jar carries, e.g. {@code 11.8.1}. */
  public static String version() {
    return RocksDB.rocksdbVersion().toString();
  }

  @Override
  public String system() {
    return "rocksdb";
  }

  @Override
  public String label() {
    return label;
  }

  @Override
  public String description() {
    return mapping.describe() + " (RocksDB " + version() + ")";
  }

  @Override
  public List<NamedPlugin> runningSchedulers(List<NamedPlugin> configured) {
    return List.of(new NamedPlugin("rocksdb-" + mapping.compaction(), Map.of()));
  }

  @Override
  public NamedPlugin testingScheduler(NamedPlugin configured) {
    return new NamedPlugin("rocksdb-" + mapping.compaction(), Map.of());
  }

  @Override
  public SystemUnderTest open(Path dir, PhaseSetup setup) throws RocksDBException {
    boolean load = setup.kind() == PhaseSetup.Kind.LOAD;
    return new Open(dir, mapping, !load, load ? loadMemtable
        : mapping.store().memoryComponent().size().bytes());
  }

  /** An open RocksDB; every native handle it made is closed with it. */
  static final class Open implements SystemUnderTest {
    private final Statistics statistics = new Statistics();
    private final Cache blockCache;
    private final BloomFilter filter;
    private final RateLimiter limiter;
    private final Options options;
    private final WriteOptions writeOptions;
    private final Quiescence quiescence = new Quiescence();
    private final RocksDB db;
    private final AtomicLong userBytes = new AtomicLong();

    Open(Path dir, RocksDbMapping mapping, boolean throttled, long memtable)
        throws RocksDBException {
      limiter = throttled ? mapping.limiter() : null;
      blockCache = mapping.blockCache();
      filter = mapping.bloomFilter();
      options = mapping.options(throttled, memtable, statistics, limiter, blockCache, filter);
      options.setListeners(List.of(quiescence));
      // Loading runs without the WAL, as Strata's store load runs with durability unlogged.
      writeOptions = new WriteOptions().setSync(false).setDisableWAL(!throttled);
      RocksDB opened;
      try {
        opened = RocksDB.open(options, dir.toString());
      } catch (RocksDBException e) {
        closeHandles();
        throw e;
      }
      db = opened;
    }

    @Override
    public void write(GeneratedRecord record) throws RocksDBException {
      byte[] k = record.keyBytes();
      byte[] v = record.valueBytes();
      db.put(writeOptions, k, v);
      userBytes.addAndGet(k.length + v.length);
    }

    @Override
    public byte[] read(String key) throws RocksDBException {
      return db.get(key.getBytes(StandardCharsets.UTF_8));
    }

    /** The block cache's {@code BLOCK_CACHE_HIT} and {@code BLOCK_CACHE_MISS} tickers. */
    @Override
    public CacheCounters cacheCounters() {
      return new CacheCounters(statistics.getTickerCount(TickerType.BLOCK_CACHE_HIT),
          statistics.getTickerCount(TickerType.BLOCK_CACHE_MISS));
    }

    @Override
    public void flush() throws RocksDBException {
      try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
        db.flush(f);
      }
    }

    /**
     * Waits until no flush or compaction runs and none is due: RocksDB's {@code
     * compaction-pending} flag is off, or its estimate of pending compaction bytes is 0 (universal
     * compaction can leave the flag on with nothing it will pick).
     */
    @Override
    public void awaitMerges() throws Exception {
      quiescence.await(() -> db.getLongProperty("rocksdb.num-running-compactions") == 0
          && db.getLongProperty("rocksdb.num-running-flushes") == 0
          && db.getLongProperty("rocksdb.mem-table-flush-pending") == 0
          && (db.getLongProperty("rocksdb.compaction-pending") == 0
              || db.getLongProperty("rocksdb.estimate-pending-compaction-bytes") == 0));
    }

    @Override
    public TargetStats stats() {
      try {
        long files = 0;
        StringBuilder shape = new StringBuilder();
        for (int level = 0; level < options.numLevels(); level++) {
          long n = Long.parseLong(db.getProperty("rocksdb.num-files-at-level" + level).trim());
          files += n;
          if (n > 0) {
            shape.append(shape.length() == 0 ? "" : ", ").append("L").append(level).append(' ')
                .append(n);
          }
        }
        Map<String, String> cf = db.getMapProperty("rocksdb.cfstats");
        long stops = (long) Double.parseDouble(cf.getOrDefault("total-stops", "0"));
        long delays = (long) Double.parseDouble(cf.getOrDefault("total-delays", "0"));
        boolean stopped = db.getLongProperty("rocksdb.is-write-stopped") != 0;
        // RocksDB counts a stop or delay condition each time it recomputes it, not each time a
        // writer waited, so the stall count is 0 and the sampler counts a stall where
        // STALL_MICROS grows after a second without; the conditions go into the shape text.
        return new TargetStats(files, statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES),
            statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES), userBytes.get(), 0,
            statistics.getTickerCount(TickerType.STALL_MICROS) / 1e6, stopped,
            db.getLongProperty("rocksdb.estimate-pending-compaction-bytes"),
            db.getLongProperty("rocksdb.total-sst-files-size"), Map.of(),
            "files per level: " + (shape.length() == 0 ? "none" : shape)
                + "; write-stall conditions: " + stops + " stop, " + delays + " delay");
      } catch (RocksDBException e) {
        throw new IllegalStateException("reading RocksDB's statistics failed: " + e.getMessage(),
            e);
      }
    }

    @Override
    public void close() {
      db.close();
      closeHandles();
    }

    private void closeHandles() {
      writeOptions.close();
      options.close();
      statistics.close();
      filter.close();
      blockCache.close();
      quiescence.close();
      if (limiter != null) {
        limiter.close();
      }
    }
  }

  /** Wakes a waiter whenever RocksDB finishes a flush or a compaction. */
  private static final class Quiescence extends AbstractEventListener {
    private final Object monitor = new Object();
    private long events;

    interface Check {
      boolean idle() throws RocksDBException;
    }

    @Override
    public void onFlushCompleted(RocksDB db, FlushJobInfo info) {
      signal();
    }

    @Override
    public void onCompactionCompleted(RocksDB db, CompactionJobInfo info) {
      signal();
    }

    private void signal() {
      synchronized (monitor) {
        events++;
        monitor.notifyAll();
      }
    }

    /**
     * Waits until {@code check} says idle, re-checking after each completed job (and once a
     * second, as RocksDB may schedule a compaction without finishing a job first).
     */
    void await(Check check) throws Exception {
      while (true) {
        long seen;
        synchronized (monitor) {
          seen = events;
        }
        if (check.idle()) {
          return;
        }
        synchronized (monitor) {
          if (events == seen) {
            monitor.wait(1000);
          }
        }
      }
    }
  }
}
