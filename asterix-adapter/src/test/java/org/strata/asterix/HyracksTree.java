package org.strata.asterix;

import java.io.File;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.hyracks.api.dataflow.value.IBinaryComparatorFactory;
import org.apache.hyracks.api.dataflow.value.ITypeTraits;
import org.apache.hyracks.api.io.FileReference;
import org.apache.hyracks.api.io.IODeviceHandle;
import org.apache.hyracks.control.nc.io.DefaultDeviceResolver;
import org.apache.hyracks.control.nc.io.IOManager;
import org.apache.hyracks.data.std.accessors.IntegerBinaryComparatorFactory;
import org.apache.hyracks.data.std.primitive.IntegerPointable;
import org.apache.hyracks.dataflow.common.comm.io.ArrayTupleBuilder;
import org.apache.hyracks.dataflow.common.comm.io.ArrayTupleReference;
import org.apache.hyracks.dataflow.common.data.accessors.ITupleReference;
import org.apache.hyracks.dataflow.common.utils.TupleUtils;
import org.apache.hyracks.storage.am.btree.impls.RangePredicate;
import org.apache.hyracks.storage.am.btree.util.BTreeUtils;
import org.apache.hyracks.storage.am.common.freepage.AppendOnlyLinkedMetadataPageManagerFactory;
import org.apache.hyracks.storage.am.common.impls.IndexAccessParameters;
import org.apache.hyracks.storage.am.common.impls.NoOpOperationCallback;
import org.apache.hyracks.storage.am.lsm.btree.impls.LSMBTree;
import org.apache.hyracks.storage.am.lsm.btree.utils.LSMBTreeUtil;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponent.ComponentState;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndexAccessor;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.IVirtualBufferCache;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMPageWriteCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpIOOperationCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.ThreadCountingTracker;
import org.apache.hyracks.storage.am.lsm.common.impls.VirtualBufferCache;
import org.apache.hyracks.storage.common.IIndexCursor;
import org.apache.hyracks.storage.common.MultiComparator;
import org.apache.hyracks.storage.common.buffercache.BufferCache;
import org.apache.hyracks.storage.common.buffercache.ClockPageReplacementStrategy;
import org.apache.hyracks.storage.common.buffercache.DelayPageCleanerPolicy;
import org.apache.hyracks.storage.common.buffercache.HeapBufferAllocator;
import org.apache.hyracks.storage.common.compression.NoOpCompressorDecompressorFactory;
import org.apache.hyracks.storage.common.file.FileMapManager;
import org.apache.hyracks.util.trace.ITracer;

/**
 * A real, standalone Hyracks 0.3.8 LSM B+-tree of (int key, int value) tuples on a real directory:
 * Hyracks' IOManager, buffer cache, two virtual-buffer-cache memory components, Bloom filters and
 * the thread-counting operation tracker (which flushes a full memory component by itself), with
 * the merge policy, I/O scheduler and page-write callback factory under test.
 */
final class HyracksTree implements AutoCloseable {
  static final int PAGE_SIZE = 4096;

  private static final IBinaryComparatorFactory[] CMP = {IntegerBinaryComparatorFactory.INSTANCE};
  private static final ITypeTraits[] TRAITS = {IntegerPointable.TYPE_TRAITS,
      IntegerPointable.TYPE_TRAITS};

  private final IOManager io;
  private final BufferCache bufferCache;
  private final LSMBTree tree;
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
    io = new IOManager(List.of(new IODeviceHandle(dir, "dev0")), new DefaultDeviceResolver(), 2,
        10);
    bufferCache = new BufferCache(io,
        new ClockPageReplacementStrategy(new HeapBufferAllocator(), PAGE_SIZE, 2048),
        new DelayPageCleanerPolicy(1000), new FileMapManager(), Integer.MAX_VALUE, 10,
        Thread::new);
    List<IVirtualBufferCache> memory = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      memory.add(new VirtualBufferCache(new HeapBufferAllocator(), PAGE_SIZE,
          memoryPagesPerComponent));
    }
    FileReference file = io.resolveAbsolutePath(new File(dir, "index").getAbsolutePath());
    tree = LSMBTreeUtil.createLSMTree(io, memory, file, bufferCache, TRAITS, CMP, new int[] {0},
        0.01, policy, new ThreadCountingTracker(), scheduler,
        NoOpIOOperationCallbackFactory.INSTANCE, pageWrites, true, null, null, null, null, true,
        AppendOnlyLinkedMetadataPageManagerFactory.INSTANCE, false, ITracer.NONE,
        NoOpCompressorDecompressorFactory.INSTANCE, true, null, null);
    if (create) {
      tree.create();
    }
    tree.activate();
    accessor = tree.createAccessor(new IndexAccessParameters(NoOpOperationCallback.INSTANCE,
        NoOpOperationCallback.INSTANCE));
  }

  LSMBTree index() {
    return tree;
  }

  void insert(int key, int value) throws Exception {
    TupleUtils.createIntegerTuple(builder, tuple, key, value);
    accessor.insert(tuple);
  }

  /** Schedules a flush of the memory component without waiting for it. */
  ILSMIOOperation scheduleFlush() throws Exception {
    return accessor.scheduleFlush();
  }

  /** Flushes the memory component and waits for the flush. */
  void flush() throws Exception {
    ILSMIOOperation op = accessor.scheduleFlush();
    op.sync();
    if (op.getStatus() != LSMIOOperationStatus.SUCCESS) {
      throw new AssertionError("flush failed", op.getFailure());
    }
  }

  /** The number of disk components, read under Hyracks' operation-tracker lock. */
  int diskComponentCount() {
    synchronized (tree.getOperationTracker()) {
      return tree.getDiskComponents().size();
    }
  }

  /** The disk component sizes, newest first. */
  List<Long> diskComponentSizes() {
    synchronized (tree.getOperationTracker()) {
      List<Long> out = new ArrayList<>();
      for (ILSMDiskComponent c : tree.getDiskComponents()) {
        out.add(c.getComponentSize());
      }
      return out;
    }
  }

  /** True while any disk component is an input of a scheduled or running merge. */
  boolean merging() {
    synchronized (tree.getOperationTracker()) {
      for (ILSMDiskComponent c : tree.getDiskComponents()) {
        if (c.getState() == ComponentState.READABLE_MERGING) {
          return true;
        }
      }
      return false;
    }
  }

  /** The value stored under {@code key}, or null. */
  Integer get(int key) throws Exception {
    ArrayTupleBuilder kb = new ArrayTupleBuilder(1);
    ArrayTupleReference k = new ArrayTupleReference();
    TupleUtils.createIntegerTuple(kb, k, key);
    MultiComparator cmp = BTreeUtils.getSearchMultiComparator(CMP, k);
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

  private boolean closed;

  @Override
  public void close() throws Exception {
    if (closed) {
      return;
    }
    closed = true;
    try {
      tree.deactivate(true);
      tree.destroy();
    } finally {
      bufferCache.close();
      io.close();
    }
  }

  /** Flushes, deactivates and closes, leaving the index's files for a later open. */
  void closeKeepingFiles() throws Exception {
    closed = true;
    try {
      tree.deactivate(true);
    } finally {
      bufferCache.close();
      io.close();
    }
  }
}
