package org.strata.lsm.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.CreatedPaths;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.wal.LogOp;

/**
 * The {@link TreeLog} of a tree in a dataset partition: its {@link TreeGroup} logs every write once
 * for all its trees, replays the shared log into them, seals them together (rolling the log
 * first) and lends its switch lock and I/O throttle, so the tree refuses direct writes and does
 * nothing with the log itself. The configurations that need a tree's own log (TRIAD, a live size)
 * are refused. Made by {@link TreeGroup#memberLog}.
 */
final class PartitionLog implements TreeLog {
  private final Path dir;
  private final IoThrottle throttle;
  private final LogHold hold;
  private final SwitchLock switchLock;
  private final FlushExecutor executor;
  private final Runnable sync;
  private final IntSupplier segmentCount;

  /**
   * Refuses, naming the key, a configuration that needs a log of the tree's own.
   *
   * @param hold the group's side of the tree's flushes
   * @param executor the group's flush thread
   * @param sync forces the shared log
   * @param segmentCount the shared log's segment files
   */
  PartitionLog(Path dir, StoreConfig config, IoThrottle throttle, LogHold hold,
      SwitchLock switchLock, FlushExecutor executor, Runnable sync,
      IntSupplier segmentCount) {
    if (config.triad().mem()) {
      throw InvalidConfigurationException.of("triad.mem", true,
          "false for an index of a dataset (TRIAD-MEM is for standalone stores)");
    }
    if (config.memoryComponent().liveSize() != null) {
      throw InvalidConfigurationException.of("memory-component.live-size",
          config.memoryComponent().liveSize(), "no live size for an index of a dataset (its"
          + " indexes seal together on their shared budget)");
    }
    if (config.triad().log()) {
      throw InvalidConfigurationException.of("triad.log", true,
          "false for an index of a dataset (TRIAD-LOG needs the index's own log; a dataset's"
              + " indexes share their partition's log)");
    }
    this.dir = dir;
    this.throttle = throttle;
    this.hold = hold;
    this.switchLock = switchLock;
    this.executor = executor;
    this.sync = sync;
    this.segmentCount = segmentCount;
  }

  @Override
  public IoThrottle throttle() {
    return throttle;
  }

  @Override
  public SwitchLock switchLock() {
    return switchLock;
  }

  @Override
  public FlushExecutor executor() {
    return executor;
  }

  @Override
  public Path clSsTableDir() {
    return null;
  }

  @Override
  public void sealed() {
    // The group rolls its shared log before it seals its trees.
  }

  @Override
  public MemoryComponents.Carrier carrier() {
    return null;
  }

  @Override
  public LogHold hold() {
    return hold;
  }

  @Override
  public FlushWriter flushWriter(BTreeFlush btree, ComponentFiles files, VersionSet versions,
      Logger log) {
    return btree;
  }

  @Override
  public void recover(Path treeDir, Manifest manifest, MemoryComponents memory, Logger log,
      CreatedPaths created, Path savedConfig) {
    // The group replays the shared log into every tree (GroupRecovery).
  }

  @Override
  public LongSupplier appendedBytes() {
    return () -> 0;
  }

  @Override
  public void start(LsmTree tree) {
    // The group records its log in every tree's manifest (TreeGroup#start).
  }

  @Override
  public void removeStale() {
    // The group removes an old log directory.
  }

  @Override
  public boolean sealsItself() {
    return false;
  }

  @Override
  public void checkDirectWrites() {
    throw new UnsupportedOperationException(dir + " is an index of a dataset; write through the"
        + " dataset, which keeps its indexes consistent");
  }

  @Override
  public void write(List<LogOp> ops, MemoryComponents memory, OperationCounter operations) {
    checkDirectWrites();
  }

  @Override
  public void sync() {
    sync.run();
  }

  @Override
  public int segmentCount() {
    return segmentCount.getAsInt();
  }

  @Override
  public void close() {
    // The group stops its flush thread and closes the shared log after its trees.
  }
}
