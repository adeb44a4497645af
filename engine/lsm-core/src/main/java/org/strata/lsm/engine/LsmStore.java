package org.strata.lsm.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.StoreStats;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.IoBudgetCounters;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.wal.WriteBatch;

/**
 * An LSM B+-tree index in a directory: memory components in front of immutable disk components,
 * with a write-ahead log, a merge policy that chooses merges and a merge scheduler that runs them.
 * Thread-safe: any number of threads may read and write concurrently.
 *
 * <p>Opening takes an exclusive lock on the directory; a second open, in this or another process,
 * fails until the first store is closed.
 */
public interface LsmStore extends AutoCloseable {

  /**
   * Opens the store in {@code dir}, creating it if the directory holds none. {@code config}, when
   * given, is validated and saved as the store's configuration ({@code config.json}); when null the
   * saved configuration is used, or the defaults for a new store.
   *
   * @throws org.strata.lsm.InvalidConfigurationException for a bad configuration, before anything
   *     is written
   */
  static LsmStore open(Path dir, StoreConfig config) {
    return Store.open(dir, config, StoreEnvironment.standard());
  }

  /** As {@link #open(Path, StoreConfig)} with an injected clock and file layer. */
  static LsmStore open(Path dir, StoreConfig config, StoreEnvironment env) {
    return Store.open(dir, config, env);
  }

  /** Inserts or replaces the value of {@code key}; durable on return under {@code sync}. */
  void put(byte[] key, byte[] value);

  /** Deletes {@code key} by writing anti-matter. */
  void delete(byte[] key);

  /** Applies a batch atomically with respect to crashes. */
  void write(WriteBatch batch);

  /** The current value of {@code key}. */
  Optional<byte[]> get(byte[] key);

  /**
   * The live entries with {@code from <= key <= to} in ascending order; a null bound is open.
   */
  ScanCursor scan(byte[] from, byte[] to);

  /**
   * Forces the log: every write that returned before this call is durable after it. Under {@code
   * log.durability: unlogged}, where nothing is logged, it flushes the memory components instead.
   */
  void sync();

  /**
   * Seals the active memory component and waits until every sealed one is a disk component.
   *
   * @throws StorageException if a flush fails; the data stays in memory and in the log
   */
  void flush();

  /** Asks the merge policy for a full merge and waits until no merge is pending. */
  void compact();

  /** Waits until no merge is scheduled or running. */
  void awaitMerges();

  /** The runs, newest first, as a merge policy sees them. */
  List<RunInfo> runs();

  /** A snapshot of the statistics. */
  StoreStats stats();

  /**
   * The merge policy's current levels in Dostoevsky's terms (T, K, Z), for a policy with levels;
   * empty for one without. Fixed for every policy but {@code adaptive-fluid}, which moves them as
   * the workload changes (docs/adaptive.md).
   */
  default Optional<org.strata.lsm.spi.LevelShape> levelShape() {
    return Optional.empty();
  }

  /**
   * Where the store's I/O budget went: bytes its flushes and merges were admitted as they wrote,
   * time they waited for it, budget left unused, time in forces (docs/performance.md).
   */
  IoBudgetCounters ioBudgetCounters();

  /**
   * What the store's device model served since it opened (the {@code device} section of its
   * configuration): bytes, forces and device time of the log, flushes and merges; {@link
   * org.strata.lsm.io.DeviceCounters#NONE} when the store runs on no device model.
   */
  default org.strata.lsm.io.DeviceCounters deviceCounters() {
    return org.strata.lsm.io.DeviceCounters.NONE;
  }

  /** The configuration in force. */
  StoreConfig config();

  /** The store's directory. */
  Path directory();

  /**
   * Flushes memory components, stops merges (an interrupted merge leaves no trace), forces the log
   * and releases the directory lock.
   */
  @Override
  void close();
}
