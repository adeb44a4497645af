package org.strata.lsm.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.strata.lsm.Limits;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.IoBudgetCounters;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.wal.LogOp;
import org.strata.lsm.wal.WriteBatch;

/**
 * A store: the {@link LsmStore} over a {@link TreeGroup} of one {@link LsmTree} in the store's
 * directory. The group admits, logs, seals and closes; the tree reads, flushes and merges. As
 * RocksDB's {@code DBImpl} over its default column family.
 */
public final class Store implements LsmStore {
  private final TreeGroup group;
  private final LsmTree tree;

  Store(TreeGroup group, LsmTree tree) {
    this.group = group;
    this.tree = tree;
  }

  /** See {@link LsmStore#open(Path, StoreConfig, StoreEnvironment)}. */
  public static Store open(Path dir, StoreConfig config, StoreEnvironment env) {
    return Recovery.open(dir, config, env);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    Limits.checkKey(key);
    Limits.checkValue(value);
    group.writeOnlyTree(List.of(new LogOp(key, value)));
  }

  @Override
  public void delete(byte[] key) {
    Limits.checkKey(key);
    group.writeOnlyTree(List.of(new LogOp(key, null)));
  }

  @Override
  public void write(WriteBatch batch) {
    if (!batch.isEmpty()) {
      group.writeOnlyTree(batch.ops());
    }
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    return tree.get(key);
  }

  @Override
  public ScanCursor scan(byte[] from, byte[] to) {
    return tree.scan(from, to);
  }

  @Override
  public void sync() {
    group.sync();
  }

  @Override
  public void flush() {
    group.flush();
  }

  @Override
  public void compact() {
    tree.compact();
  }

  @Override
  public void awaitMerges() {
    tree.awaitMerges();
  }

  @Override
  public List<RunInfo> runs() {
    return tree.runs();
  }

  @Override
  public StoreStats stats() {
    return tree.stats();
  }

  @Override
  public Optional<org.strata.lsm.spi.LevelShape> levelShape() {
    return tree.levelShape();
  }

  @Override
  public IoBudgetCounters ioBudgetCounters() {
    return tree.ioBudgetCounters();
  }

  @Override
  public org.strata.lsm.io.DeviceCounters deviceCounters() {
    return tree.deviceCounters();
  }

  @Override
  public StoreConfig config() {
    return tree.config();
  }

  @Override
  public Path directory() {
    return tree.directory();
  }

  /** The store's I/O throttle, for statistics and tests. */
  public IoThrottle throttle() {
    return tree.throttle();
  }

  /** Number of write-ahead log segment files. */
  public int logSegmentCount() {
    return group.logSegmentCount();
  }

  /**
   * Lets go of every file without a flush, a manifest or a log force (a kill, for tests); the log
   * keeps what was not flushed.
   */
  void abandon() {
    group.abandon();
  }

  /** Waits until the sealed memory components are flushed, sealing none (for tests). */
  void awaitSealedFlushed() {
    tree.flushSealed();
  }

  /** Flushes the memory components, then closes the tree and the log. */
  @Override
  public void close() {
    group.close();
  }

  @Override
  public String toString() {
    return "Store[" + tree.directory() + "]";
  }
}
