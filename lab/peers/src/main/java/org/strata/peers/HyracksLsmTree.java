package org.strata.peers;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.hyracks.api.dataflow.value.IBinaryComparatorFactory;
import org.apache.hyracks.api.dataflow.value.ITypeTraits;
import org.apache.hyracks.api.io.FileReference;
import org.apache.hyracks.api.io.IODeviceHandle;
import org.apache.hyracks.control.nc.io.DefaultDeviceResolver;
import org.apache.hyracks.control.nc.io.IOManager;
import org.apache.hyracks.data.std.accessors.IntegerBinaryComparatorFactory;
import org.apache.hyracks.data.std.accessors.RawBinaryComparatorFactory;
import org.apache.hyracks.data.std.primitive.IntegerPointable;
import org.apache.hyracks.data.std.primitive.VarLengthTypeTrait;
import org.apache.hyracks.storage.am.common.freepage.AppendOnlyLinkedMetadataPageManagerFactory;
import org.apache.hyracks.storage.am.common.impls.IndexAccessParameters;
import org.apache.hyracks.storage.am.common.impls.NoOpOperationCallback;
import org.apache.hyracks.storage.am.lsm.btree.impls.LSMBTree;
import org.apache.hyracks.storage.am.lsm.btree.utils.LSMBTreeUtil;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMComponent.ComponentState;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndexAccessor;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMPageWriteCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.api.IVirtualBufferCache;
import org.apache.hyracks.storage.am.lsm.common.impls.ThreadCountingTracker;
import org.apache.hyracks.storage.am.lsm.common.impls.VirtualBufferCache;
import org.apache.hyracks.storage.common.buffercache.BufferCache;
import org.apache.hyracks.storage.common.buffercache.ClockPageReplacementStrategy;
import org.apache.hyracks.storage.common.buffercache.DelayPageCleanerPolicy;
import org.apache.hyracks.storage.common.buffercache.HeapBufferAllocator;
import org.apache.hyracks.storage.common.compression.NoOpCompressorDecompressorFactory;
import org.apache.hyracks.storage.common.file.FileMapManager;
import org.apache.hyracks.util.trace.ITracer;

/**
 * A real, standalone Hyracks 0.3.8 LSM B+-tree on a real directory, with no AsterixDB around it:
 * Hyracks' IOManager and buffer cache, N virtual-buffer-cache memory components, Bloom filters,
 * and the thread-counting operation tracker (which flushes a full memory component by itself),
 * with the merge policy, I/O scheduler, I/O operation callbacks and page-write callbacks given.
 * Hyracks storage has no write-ahead log (AsterixDB keeps its log outside the tree).
 */
@SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
public final class HyracksLsmTree implements AutoCloseable {

  /**
   * The tuple layout: two fields, a key and a value, with their type traits and the key's
   * comparator.
   *
   * @param traits type traits of the key and the value
   * @param keyComparator the key's comparator
   */
  public record Layout(ITypeTraits[] traits, IBinaryComparatorFactory keyComparator) {
    /** A 4-byte integer key and a 4-byte integer value. */
    public static final Layout INT_INT = new Layout(new ITypeTraits[] {
        IntegerPointable.TYPE_TRAITS, IntegerPointable.TYPE_TRAITS},
        IntegerBinaryComparatorFactory.INSTANCE);
    /** A variable-length byte-string key compared bytewise and a variable-length value. */
    public static final Layout BYTES_BYTES = new Layout(new ITypeTraits[] {
        VarLengthTypeTrait.INSTANCE, VarLengthTypeTrait.INSTANCE},
        RawBinaryComparatorFactory.INSTANCE);
  }

  private final IOManager io;
  private final BufferCache bufferCache;
  private final LSMBTree tree;
  private final Layout layout;
  private boolean closed;

  /**
   * Builds the tree and activates it.
   *
   * @param dir the directory of the index and its device
   * @param memoryComponents memory components (2 as in AsterixDB: one filling, one flushing)
   * @param memoryPagesPerComponent pages of each memory component
   * @param pageSize bytes of a page, in memory and on disk
   * @param bufferCachePages pages of the disk buffer cache
   * @param create true for a new index; false to open the one a {@link #closeKeepingFiles()}
   *     left (or a copy of its directory)
   */
  public HyracksLsmTree(File dir, Layout layout, ILSMMergePolicy policy,
      ILSMIOOperationScheduler scheduler, ILSMIOOperationCallbackFactory ioCallbacks,
      ILSMPageWriteCallbackFactory pageWrites, int memoryComponents,
      int memoryPagesPerComponent, int pageSize, int bufferCachePages, boolean create)
      throws Exception {
    this.layout = layout;
    io = new IOManager(List.of(new IODeviceHandle(dir, "dev0")), new DefaultDeviceResolver(), 2,
        10);
    bufferCache = new BufferCache(io,
        new ClockPageReplacementStrategy(new HeapBufferAllocator(), pageSize, bufferCachePages),
        new DelayPageCleanerPolicy(1000), new FileMapManager(), Integer.MAX_VALUE, 10,
        Thread::new);
    List<IVirtualBufferCache> memory = new ArrayList<>();
    for (int i = 0; i < memoryComponents; i++) {
      memory.add(new VirtualBufferCache(new HeapBufferAllocator(), pageSize,
          memoryPagesPerComponent));
    }
    FileReference file = io.resolveAbsolutePath(new File(dir, "index").getAbsolutePath());
    tree = LSMBTreeUtil.createLSMTree(io, memory, file, bufferCache, layout.traits(),
        new IBinaryComparatorFactory[] {layout.keyComparator()}, new int[] {0}, 0.01, policy,
        new ThreadCountingTracker(), scheduler, ioCallbacks, pageWrites, true, null, null, null,
        null, true, AppendOnlyLinkedMetadataPageManagerFactory.INSTANCE, false, ITracer.NONE,
        NoOpCompressorDecompressorFactory.INSTANCE, true, null, null);
    if (create) {
      tree.create();
    }
    tree.activate();
  }

  /** The Hyracks index. */
  public LSMBTree index() {
    return tree;
  }

  /** The tuple layout. */
  public Layout layout() {
    return layout;
  }

  /** A new accessor; accessors are not thread-safe, so use one per thread. */
  public ILSMIndexAccessor createAccessor() {
    return tree.createAccessor(new IndexAccessParameters(NoOpOperationCallback.INSTANCE,
        NoOpOperationCallback.INSTANCE));
  }

  /** Schedules a flush of the memory component without waiting for it. */
  public ILSMIOOperation scheduleFlush(ILSMIndexAccessor accessor) throws Exception {
    return accessor.scheduleFlush();
  }

  /** Flushes the memory component and waits for the flush; fails if it failed. */
  public void flush(ILSMIndexAccessor accessor) throws Exception {
    ILSMIOOperation op = accessor.scheduleFlush();
    op.sync();
    if (op.getStatus() != LSMIOOperationStatus.SUCCESS) {
      throw new IllegalStateException("Hyracks flush failed", op.getFailure());
    }
  }

  /** The number of disk components, read under Hyracks' operation-tracker lock. */
  public int diskComponentCount() {
    synchronized (tree.getOperationTracker()) {
      return tree.getDiskComponents().size();
    }
  }

  /** The disk component sizes in bytes, newest first. */
  public List<Long> diskComponentSizes() {
    synchronized (tree.getOperationTracker()) {
      List<Long> out = new ArrayList<>();
      for (ILSMDiskComponent c : tree.getDiskComponents()) {
        out.add(c.getComponentSize());
      }
      return out;
    }
  }

  /** True while any disk component is an input of a scheduled or running merge. */
  public boolean merging() {
    return mergingBytes() > 0 || mergingCount() > 0;
  }

  /** Bytes of the disk components that are inputs of a scheduled or running merge. */
  public long mergingBytes() {
    synchronized (tree.getOperationTracker()) {
      long bytes = 0;
      for (ILSMDiskComponent c : tree.getDiskComponents()) {
        if (c.getState() == ComponentState.READABLE_MERGING) {
          bytes += c.getComponentSize();
        }
      }
      return bytes;
    }
  }

  private int mergingCount() {
    synchronized (tree.getOperationTracker()) {
      int n = 0;
      for (ILSMDiskComponent c : tree.getDiskComponents()) {
        if (c.getState() == ComponentState.READABLE_MERGING) {
          n++;
        }
      }
      return n;
    }
  }

  /** Deactivates and destroys the index, deleting its files. */
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
  public void closeKeepingFiles() throws Exception {
    if (closed) {
      return;
    }
    closed = true;
    try {
      tree.deactivate(true);
    } finally {
      bufferCache.close();
      io.close();
    }
  }
}
