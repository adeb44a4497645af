package org.strata.lsm.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats.StallTotals;
import org.strata.lsm.Limits;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.wal.LogOp;

/**
 * What differs between the two kinds of {@link TreeGroup}, chosen when the group is made: a store
 * is a group of one tree, in the group's own directory, whose memory components are the memory
 * budget and whose log holds its operations as they are ({@link StoreForm}); a dataset partition
 * is a group of its indexes, which share a memory budget and log each write once for all of them,
 * every operation tagged with its tree ({@link PartitionForm}). The write sequence, the seal, the
 * flush thread, the log's truncation rules and the close are the group's, the same for both.
 */
interface GroupForm {
  /**
   * What the group lends the tree in {@code treeDir} (once its statistics exist). Refuses, naming
   * the key, a configuration this kind of group cannot keep.
   */
  TreeServices services(Path treeDir, StoreConfig config, EngineStats stats);

  /**
   * Returns once a write of {@code ops} to the trees marked in {@code touched} may go ahead:
   * waits out stalls, has the group seal when the memory budget is used up, paces, or fails the
   * write. Takes the group's and the trees' locks as it needs them; holds none on return.
   */
  void admit(boolean[] touched, List<LogOp> ops);

  /** The log operation that writes {@code value} (null: anti-matter) at {@code key} of a tree. */
  LogOp logged(int tree, byte[] key, byte[] value);

  /**
   * The log operations of {@code ops}, each checked (its tree in the group, its key and value
   * within {@link Limits}), marking in {@code touched} (one per tree) the trees they write.
   */
  default List<LogOp> logged(List<TreeGroup.Op> ops, boolean[] touched) {
    List<LogOp> logged = new ArrayList<>(ops.size());
    for (TreeGroup.Op op : ops) {
      if (op.tree() < 0 || op.tree() >= touched.length) {
        throw new IllegalArgumentException("tree " + op.tree() + " is not in this group of "
            + touched.length);
      }
      Limits.checkKey(op.key());
      if (op.value() != null) {
        Limits.checkValue(op.value());
      }
      touched[op.tree()] = true;
      logged.add(logged(op.tree(), op.key(), op.value()));
    }
    return logged;
  }

  /** Stalls of the group's memory budget (a store's are its tree's). Caller holds the lock. */
  Map<StallCause, StallTotals> memoryStalls(long now);

  /** The group closes: ends a stall in progress. Caller holds the group's lock. */
  void closed(long now);

  /** The group's name in messages: "store DIR" or "dataset partition DIR". */
  String describe(Path dir);
}
