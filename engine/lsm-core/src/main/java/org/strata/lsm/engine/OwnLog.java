package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.StoreEnvironment;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.io.CreatedPaths;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.wal.LogOp;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * A store's own write-ahead log ({@link TreeLog}): the store logs and inserts its writes under the
 * shared side of its memory components' switch lock, rolls the log at every seal, and with TRIAD
 * re-logs the hot keys a seal carries (TRIAD-MEM) or flushes to CL-SSTables over the log's
 * segments (TRIAD-LOG).
 */
final class OwnLog implements TreeLog {
  private final Path dir;
  private final StoreConfig config;
  private final StoreEnvironment env;
  private final IoThrottle throttle;
  private final ReentrantReadWriteLock switchLock = new ReentrantReadWriteLock();
  /** TRIAD-MEM, or null when off. */
  private final TriadMem triadMem;
  /** The log, once replayed. */
  private WriteAheadLog wal;
  /** An old, fully flushed log to remove once the open has succeeded ({@link LogLocation}). */
  private Path staleLogDir;

  OwnLog(Path dir, StoreConfig config, StoreEnvironment env, EngineStats stats) {
    this.dir = dir;
    this.config = config;
    this.env = env;
    this.throttle = new IoThrottle(config.io().writeRateLimit().bytes(), env.clock());
    this.triadMem = !config.triad().mem() ? null : new TriadMem(config.triad(),
        config.memoryComponent().memtableBytes(), c -> stats.relogged(c.entries(), c.bytes()));
  }

  @Override
  public IoThrottle throttle() {
    return throttle;
  }

  @Override
  public ReentrantReadWriteLock switchLock() {
    return switchLock;
  }

  @Override
  public Path clSsTableDir() {
    return LogLocation.configured(dir, config);
  }

  @Override
  public void sealed() {
    wal.roll();
    env.crashPoints().reached(CrashPoint.LOG_ROTATION);
  }

  @Override
  public MemoryComponents.Carrier carrier() {
    return triadMem == null ? null
        : (sealed, fresh) -> triadMem.carry(sealed, fresh, wal::append);
  }

  @Override
  public LogHold hold() {
    return new StoreLogHold(() -> wal, triadMem, env.crashPoints());
  }

  @Override
  public FlushWriter flushWriter(BTreeFlush btree, ComponentFiles files, VersionSet versions,
      Logger log) {
    return config.triad().log() ? new ClSsTableFlush(dir, log, files, versions, () -> wal, btree)
        : btree;
  }

  @Override
  public void recover(Path treeDir, Manifest manifest, MemoryComponents memory, Logger log,
      CreatedPaths created, Path savedConfig) throws IOException {
    Path[] stale = new Path[1];
    wal = Recovery.replayLog(treeDir, config, env.fileIo(), manifest, memory.active(), log, stale,
        created, savedConfig);
    staleLogDir = stale[0];
  }

  @Override
  public LongSupplier appendedBytes() {
    WriteAheadLog log = wal;
    return log::appendedBytes;
  }

  @Override
  public void start(LsmTree tree) throws IOException {
    tree.recordLog(wal.logId(), wal.directory(), dir);
  }

  @Override
  public void removeStale() {
    if (staleLogDir != null) {
      LogLocation.removeStale(staleLogDir, env.fileIo());
      staleLogDir = null;
    }
  }

  @Override
  public boolean sealsItself() {
    return true;
  }

  @Override
  public void checkDirectWrites() {
    // A store takes its writes directly.
  }

  @Override
  public void write(List<LogOp> ops, MemoryComponents memory, OperationCounter operations) {
    long lsn;
    Lock insert = memory.insertLock();
    insert.lock();
    try {
      MemoryComponent target = memory.active();
      lsn = wal.append(ops);
      long first = lsn - ops.size() + 1;
      for (int i = 0; i < ops.size(); i++) {
        LogOp op = ops.get(i);
        target.put(op.key(), op.value(), first + i);
      }
    } finally {
      insert.unlock();
    }
    operations.updated(ops.size());
    wal.committed(lsn);
  }

  @Override
  public void sync() {
    wal.syncAll();
  }

  @Override
  public int segmentCount() {
    return wal.segmentCount();
  }

  @Override
  public void close() {
    if (wal != null) {
      wal.close();
    }
  }
}
