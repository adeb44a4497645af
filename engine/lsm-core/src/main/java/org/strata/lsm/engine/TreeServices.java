package org.strata.lsm.engine;

import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.io.IoThrottle;

/**
 * What a {@link TreeGroup} lends each of its trees: everything a tree needs of the log, the
 * memory budget and the flush thread, which the group alone owns. A store is a group of one tree
 * ({@link StoreForm}); a dataset partition is a group of its indexes ({@link PartitionForm}). The
 * tree keeps its memory components, versions, merges and reads, and asks its group for nothing
 * else.
 *
 * @param lock the tree lock: the group's own lock when the tree is the group's only tree (a
 *     store), so that a store's writers decide, seal and wait under one lock; a lock of the tree's
 *     own in a dataset partition (taken after the group's)
 * @param throttle the I/O budget the tree's flushes and merges are throttled by (a partition's is
 *     shared by its trees)
 * @param switchLock the group's switch lock: writers insert under its shared side, seals take its
 *     exclusive side ({@link LogOwner})
 * @param executor the group's flush thread
 * @param sealer seals the group's active memory components, rolling its log first ({@link
 *     TreeGroup#sealAll}); a tree's writers call it when their own memory components are the
 *     budget (a store) and are full
 * @param carrier what a seal of a full memory component carries into the next one (TRIAD-MEM),
 *     or null
 * @param hold the log's side of the tree's flushes
 * @param clSsTableDir where TRIAD-LOG keeps the CL-SSTable segments of the tree's flushes (the
 *     store's log directory), or null where flushes write B+-tree components only
 * @param flushWriter how the tree's flushes write, given the B+-tree flush
 */
record TreeServices(ReentrantLock lock, IoThrottle throttle, SwitchLock switchLock,
    FlushExecutor executor, Sealer sealer, MemoryComponents.Carrier carrier, LogHold hold,
    Path clSsTableDir, FlushWriters flushWriter) {

  /** Makes a tree's services once its statistics exist (TRIAD-MEM counts its carries in them). */
  @FunctionalInterface
  interface Factory {
    TreeServices create(EngineStats stats);
  }

  /** Seals the group's active memory components; see {@link TreeGroup#sealAll}. */
  @FunctionalInterface
  interface Sealer {
    /**
     * @param full whether the seal is because the memory budget is used up (TRIAD-MEM may then
     *     carry hot keys). Caller holds the group's lock.
     */
    void seal(boolean full);
  }

  /** Chooses a tree's {@link FlushWriter} at open. */
  @FunctionalInterface
  interface FlushWriters {
    FlushWriter choose(BTreeFlush btree, ComponentFiles files, VersionSet versions, Logger log);
  }
}
