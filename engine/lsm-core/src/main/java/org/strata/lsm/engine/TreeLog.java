package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.io.CreatedPaths;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.wal.LogOp;

/**
 * The log a tree's writes go to, and who keeps it: a store keeps its own ({@link OwnLog}); a tree
 * of a dataset partition writes through its {@link TreeGroup}, which keeps the partition's shared
 * log ({@link PartitionLog}). Everything {@link LsmTree} does with a log goes through this
 * interface, chosen once at open, so the tree has one code path for both.
 */
interface TreeLog {
  /** Makes the tree's log once its statistics exist (TRIAD-MEM counts its carries in them). */
  @FunctionalInterface
  interface Factory {
    TreeLog create(EngineStats stats);
  }

  /** The I/O budget the tree's flushes and merges are throttled by (a partition's is shared). */
  IoThrottle throttle();

  /**
   * Where TRIAD-LOG keeps the CL-SSTable segments of the tree's flushes (its own log's directory),
   * or null where flushes write B+-tree components only.
   */
  Path clSsTableDir();

  /**
   * The switch lock writers insert under (shared) and seals take (exclusive): the store's own, or
   * the one its partition's trees share ({@link MemoryComponents}).
   */
  SwitchLock switchLock();

  /**
   * The thread the tree's flushes run on: the store's own, or its partition's, shared by the
   * partition's trees. Closing the log stops a store's.
   */
  FlushExecutor executor();

  /** Called at every seal of the tree's memory component, under the exclusive switch lock. */
  void sealed();

  /** What a seal of a full memory component carries into the next one (TRIAD-MEM), or null. */
  MemoryComponents.Carrier carrier();

  /** The log's side of the tree's flushes. */
  LogHold hold();

  /** How the tree's flushes write, given the B+-tree flush (TRIAD-LOG may write CL-SSTables). */
  FlushWriter flushWriter(BTreeFlush btree, ComponentFiles files, VersionSet versions, Logger log);

  /**
   * Replays into {@code memory}'s active component what the log holds above the manifest's
   * flushed sequence number (a store's own log; a partition's group replays its shared log into
   * every tree itself). Changes no file but the log's own opening.
   */
  void recover(Path dir, Manifest manifest, MemoryComponents memory, Logger log,
      CreatedPaths created, Path savedConfig) throws IOException;

  /** The bytes appended since open (0 where the group counts them). */
  LongSupplier appendedBytes();

  /** Once the open has succeeded: records the log in {@code tree}'s manifest. */
  void start(LsmTree tree) throws IOException;

  /** Removes an old, fully flushed log directory recovery found, once the tree has started. */
  void removeStale();

  /** Whether the tree seals its own active memory component on flush (a group seals its trees). */
  boolean sealsItself();

  /** Throws unless the tree takes writes directly (a partition's are written by its group). */
  void checkDirectWrites();

  /**
   * Logs {@code ops} as one record and inserts them into {@code memory}'s active component, then
   * makes the record durable as {@code log.durability} says ({@link LogOwner#write}).
   */
  void write(List<LogOp> ops, MemoryComponents memory, OperationCounter operations);

  /** Forces the log: every write that returned before is durable after. */
  void sync();

  /** Log segment files, for tests and statistics. */
  int segmentCount();

  /** Stops the flush thread and closes the log if the tree keeps them. */
  void close();
}
