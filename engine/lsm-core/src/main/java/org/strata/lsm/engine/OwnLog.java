package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.CreatedPaths;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.wal.LogOp;

/**
 * A store's own write-ahead log ({@link TreeLog}): the store logs and inserts its writes through
 * its {@link LogOwner} (the write sequence a partition's {@link TreeGroup} runs too), rolls the log
 * at every seal, flushes on its own {@link FlushExecutor}, and with TRIAD re-logs the hot keys a
 * seal carries (TRIAD-MEM) or flushes to CL-SSTables over the log's segments (TRIAD-LOG).
 */
final class OwnLog implements TreeLog {
  private final Path dir;
  private final StoreConfig config;
  private final StoreEnvironment env;
  private final IoThrottle throttle;
  /** The log (once replayed) and the switch lock. */
  private final LogOwner owner;
  /** The store's one flush thread. */
  private final FlushExecutor executor;
  /** TRIAD-MEM, or null when off. */
  private final TriadMem triadMem;
  /** An old, fully flushed log to remove once the open has succeeded ({@link LogLocation}). */
  private Path staleLogDir;

  OwnLog(Path dir, StoreConfig config, StoreEnvironment env, EngineStats stats) {
    this.dir = dir;
    this.config = config;
    this.env = env;
    this.throttle = new IoThrottle(config.io().writeRateLimit().bytes(), env.clock());
    this.owner = new LogOwner(env.crashPoints());
    this.executor = new FlushExecutor(LsmTree.nameOf(dir));
    this.triadMem = !config.triad().mem() ? null : new TriadMem(config.triad(),
        config.memoryComponent().memtableBytes(), c -> stats.relogged(c.entries(), c.bytes()));
  }

  @Override
  public IoThrottle throttle() {
    return throttle;
  }

  @Override
  public SwitchLock switchLock() {
    return owner.switchLock();
  }

  @Override
  public FlushExecutor executor() {
    return executor;
  }

  @Override
  public Path clSsTableDir() {
    return LogLocation.configured(dir, config);
  }

  @Override
  public void sealed() {
    owner.roll();
  }

  @Override
  public MemoryComponents.Carrier carrier() {
    return triadMem == null ? null
        : (sealed, fresh) -> triadMem.carry(sealed, fresh, ops -> owner.wal().append(ops));
  }

  @Override
  public LogHold hold() {
    return new StoreLogHold(owner::wal, triadMem, env.crashPoints());
  }

  @Override
  public FlushWriter flushWriter(BTreeFlush btree, ComponentFiles files, VersionSet versions,
      Logger log) {
    return config.triad().log() ? new ClSsTableFlush(dir, log, files, versions, owner::wal, btree)
        : btree;
  }

  @Override
  public void recover(Path treeDir, Manifest manifest, MemoryComponents memory, Logger log,
      CreatedPaths created, Path savedConfig) throws IOException {
    Path[] stale = new Path[1];
    owner.opened(Recovery.replayLog(treeDir, config, env.fileIo(), manifest, memory.active(), log,
        stale, created, savedConfig));
    staleLogDir = stale[0];
  }

  @Override
  public LongSupplier appendedBytes() {
    return owner.wal()::appendedBytes;
  }

  @Override
  public void start(LsmTree tree) throws IOException {
    tree.recordLog(owner.wal().logId(), owner.wal().directory(), dir);
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
    owner.write(ops, (i, lsn) -> {
      LogOp op = ops.get(i);
      memory.active().put(op.key(), op.value(), lsn);
      operations.updated(1);
    });
  }

  @Override
  public void sync() {
    owner.sync();
  }

  @Override
  public int segmentCount() {
    return owner.segmentCount();
  }

  @Override
  public void close() {
    executor.stop();
    owner.close();
  }
}
