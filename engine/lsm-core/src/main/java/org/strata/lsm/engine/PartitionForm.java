package org.strata.lsm.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats.StallTotals;
import org.strata.lsm.io.Clock;
import java.util.concurrent.locks.ReentrantLock;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.wal.LogOp;

/**
 * The {@link GroupForm} of a dataset partition: a group of its indexes, each in a directory of its
 * own under the partition's. A write waits while a tree it touches has a violated component
 * constraint (counted by that tree), then for the shared memory budget ({@link GroupMemoryGate});
 * its operations are logged as one record, each tagged with its tree ({@link TreeTag}). The
 * configurations that need a log of the tree's own (TRIAD, a live size) are refused.
 */
final class PartitionForm implements GroupForm {
  private final TreeGroup group;
  private final List<LsmTree> trees;
  /** Memory-full stalls of the group (constraint stalls are counted by each tree). */
  private final StallTracker stalls;
  private final GroupMemoryGate memoryGate;
  private final LogHold hold;

  /**
   * @param trees the group's trees (its own list, read at each write)
   * @param memoryBudget bytes of active memory components, summed over the trees, that trigger a
   *     seal of all of them ({@link GroupMemoryGate})
   * @param dir the partition's directory
   * @param hold the log's side of every tree's flushes ({@link GroupLogHold})
   */
  PartitionForm(TreeGroup group, List<LsmTree> trees, long memoryBudget, Clock clock, Path dir,
      LogHold hold) {
    this.group = group;
    this.trees = trees;
    this.stalls = new StallTracker(LsmTree.nameOf(dir), (cause, nanos) ->
        trees.forEach(t -> t.member().stallEnded(cause, nanos)));
    this.memoryGate = new GroupMemoryGate(group.lock(), group.changed(), clock, stalls,
        memoryBudget, trees, group::ensureOpen, () -> group.sealAll(false));
    this.hold = hold;
  }

  @Override
  public TreeServices services(Path treeDir, StoreConfig config, EngineStats stats) {
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
    return new TreeServices(new ReentrantLock(), group.throttle(),
        group.logOwner().switchLock(), group.executor(), full -> {
          throw new IllegalStateException("an index of a dataset partition does not seal by"
              + " itself; its group seals all its indexes");
        }, null, hold, null, (btree, files, versions, log) -> btree);
  }

  @Override
  public void admit(boolean[] touched, List<LogOp> ops) {
    for (int i = 0; i < touched.length; i++) {
      if (touched[i]) {
        trees.get(i).member().awaitConstraint();
      }
    }
    memoryGate.admit();
  }

  @Override
  public LogOp logged(int tree, byte[] key, byte[] value) {
    return TreeTag.tagged(tree, key, value);
  }

  @Override
  public Map<StallCause, StallTotals> memoryStalls(long now) {
    assert group.lock().isHeldByCurrentThread() : "caller holds the group's lock";
    return stalls.totals(now);
  }

  @Override
  public void closed(long now) {
    assert group.lock().isHeldByCurrentThread() : "caller holds the group's lock";
    stalls.end(now);
  }

  @Override
  public String describe(Path dir) {
    return "dataset partition " + dir;
  }
}
