package org.strata.asterix;

import java.io.File;
import java.util.BitSet;
import java.util.List;
import org.apache.hyracks.api.dataflow.value.IBinaryComparatorFactory;
import org.apache.hyracks.data.std.primitive.IntegerPointable;
import org.apache.hyracks.dataflow.common.comm.io.ArrayTupleBuilder;
import org.apache.hyracks.dataflow.common.comm.io.ArrayTupleReference;
import org.apache.hyracks.dataflow.common.data.accessors.ITupleReference;
import org.apache.hyracks.dataflow.common.utils.TupleUtils;
import org.apache.hyracks.storage.am.btree.impls.RangePredicate;
import org.apache.hyracks.storage.am.btree.util.BTreeUtils;
import org.apache.hyracks.storage.am.lsm.btree.impls.LSMBTree;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndexAccessor;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMPageWriteCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpIOOperationCallbackFactory;
import org.apache.hyracks.storage.common.IIndexCursor;
import org.apache.hyracks.storage.common.MultiComparator;
import org.strata.peers.HyracksLsmTree;

/**
 * The adapter tests' view of a standalone Hyracks 0.3.8 LSM B+-tree ({@link HyracksLsmTree}, the
 * same tree the Hyracks peer runs) of (int key, int value) tuples: two memory components of the
 * given pages, a 2,048-page buffer cache, 4 KB pages, and the merge policy, I/O scheduler and
 * page-write callback factory under test.
 */
final class HyracksTree implements AutoCloseable {
  static final int PAGE_SIZE = 4096;

  private final HyracksLsmTree tree;
  private final ILSMIndexAccessor accessor;
  private final ArrayTupleBuilder builder = new ArrayTupleBuilder(2);
  private final ArrayTupleReference tuple = new ArrayTupleReference();

  /**
   * @param dir an empty directory for the index and its device
   * @param memoryPagesPerComponent pages of each of the two memory components
   */
  HyracksTree(File dir, ILSMMergePolicy policy, ILSMIOOperationScheduler scheduler,
      ILSMPageWriteCallbackFactory pageWrites, int memoryPagesPerComponent) throws Exception {
    this(dir, policy, scheduler, pageWrites, memoryPagesPerComponent, true);
  }

  /**
   * @param create true for a new index; false to open the one a {@link #closeKeepingFiles()} left
   */
  HyracksTree(File dir, ILSMMergePolicy policy, ILSMIOOperationScheduler scheduler,
      ILSMPageWriteCallbackFactory pageWrites, int memoryPagesPerComponent, boolean create)
      throws Exception {
    tree = new HyracksLsmTree(dir, HyracksLsmTree.Layout.INT_INT, policy, scheduler,
        NoOpIOOperationCallbackFactory.INSTANCE, pageWrites, 2, memoryPagesPerComponent,
        PAGE_SIZE, 2048, create);
    accessor = tree.createAccessor();
  }

  LSMBTree index() {
    return tree.index();
  }

  void insert(int key, int value) throws Exception {
    TupleUtils.createIntegerTuple(builder, tuple, key, value);
    accessor.insert(tuple);
  }

  /** Schedules a flush of the memory component without waiting for it. */
  ILSMIOOperation scheduleFlush() throws Exception {
    return tree.scheduleFlush(accessor);
  }

  /** Flushes the memory component and waits for the flush. */
  void flush() throws Exception {
    tree.flush(accessor);
  }

  /** The number of disk components, read under Hyracks' operation-tracker lock. */
  int diskComponentCount() {
    return tree.diskComponentCount();
  }

  /** The disk component sizes, newest first. */
  List<Long> diskComponentSizes() {
    return tree.diskComponentSizes();
  }

  /** True while any disk component is an input of a scheduled or running merge. */
  boolean merging() {
    return tree.merging();
  }

  /** The value stored under {@code key}, or null. */
  Integer get(int key) throws Exception {
    ArrayTupleBuilder kb = new ArrayTupleBuilder(1);
    ArrayTupleReference k = new ArrayTupleReference();
    TupleUtils.createIntegerTuple(kb, k, key);
    MultiComparator cmp = BTreeUtils.getSearchMultiComparator(
        new IBinaryComparatorFactory[] {tree.layout().keyComparator()}, k);
    IIndexCursor cursor = accessor.createSearchCursor(false);
    try {
      accessor.search(cursor, new RangePredicate(k, k, true, true, cmp, cmp));
      try {
        if (!cursor.hasNext()) {
          return null;
        }
        cursor.next();
        return intField(cursor.getTuple(), 1);
      } finally {
        cursor.close();
      }
    } finally {
      cursor.destroy();
    }
  }

  /** Scans everything; fails on a key out of order or a value that is not {@code key * 7}. */
  BitSet scanKeys() throws Exception {
    BitSet keys = new BitSet();
    IIndexCursor cursor = accessor.createSearchCursor(false);
    try {
      accessor.search(cursor, new RangePredicate(null, null, true, true, null, null));
      try {
        int last = Integer.MIN_VALUE;
        while (cursor.hasNext()) {
          cursor.next();
          int key = intField(cursor.getTuple(), 0);
          int value = intField(cursor.getTuple(), 1);
          if (key <= last || value != key * 7) {
            throw new AssertionError("bad tuple " + key + " -> " + value + " after " + last);
          }
          keys.set(key);
          last = key;
        }
      } finally {
        cursor.close();
      }
    } finally {
      cursor.destroy();
    }
    return keys;
  }

  private static int intField(ITupleReference t, int field) {
    return IntegerPointable.getInteger(t.getFieldData(field), t.getFieldStart(field));
  }

  @Override
  public void close() throws Exception {
    tree.close();
  }

  /** Flushes, deactivates and closes, leaving the index's files for a later open. */
  void closeKeepingFiles() throws Exception {
    tree.closeKeepingFiles();
  }
}
