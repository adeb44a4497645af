package org.strata.peers;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationCallback;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIndex;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMemoryComponent;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpIOOperationCallbackFactory;
import org.apache.hyracks.storage.common.IResource;

/**
 * I/O operation callbacks of a standalone Hyracks tree that count what its flushes and merges
 * write (the new component's bytes when an operation finishes) and how many operations are
 * scheduled but not completed, so a caller can wait for quiescence without polling. Everything
 * else is Hyracks' no-op callback. Standalone use only: it is not registered for persistence.
 */
public final class HyracksIoCounters implements ILSMIOOperationCallbackFactory {
  private static final long serialVersionUID = 1L;

  private final transient AtomicLong bytesFlushed = new AtomicLong();
  private final transient AtomicLong bytesMerged = new AtomicLong();
  private final transient Object monitor = new Object();
  private transient long inFlight;
  /** The flush or merge each thread is running now (Hyracks runs an operation on one thread). */
  private final transient java.util.Map<Thread, LSMIOOperationType> running =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The kind of flush or merge the calling thread is running, or null. */
  public LSMIOOperationType runningOnThisThread() {
    return running.get(Thread.currentThread());
  }

  /** Bytes of the disk components that flushes created. */
  public long bytesFlushed() {
    return bytesFlushed.get();
  }

  /** Bytes of the disk components that merges created. */
  public long bytesMerged() {
    return bytesMerged.get();
  }

  /** Flushes and merges scheduled and not completed. */
  public long inFlight() {
    synchronized (monitor) {
      return inFlight;
    }
  }

  /**
   * Waits while {@code busy} says so, waking when a flush or merge completes (and once a second,
   * in case an operation completes without its callback, which Hyracks does for a failed one).
   */
  public void awaitIdle(java.util.function.BooleanSupplier busy) throws InterruptedException {
    while (true) {
      synchronized (monitor) {
        if (!busy.getAsBoolean()) {
          return;
        }
        monitor.wait(1000);
      }
    }
  }

  @Override
  public void initialize(INCServiceContext ctx, IResource resource) {}

  @Override
  public ILSMIOOperationCallback createIoOpCallback(ILSMIndex index) throws HyracksDataException {
    ILSMIOOperationCallback base = NoOpIOOperationCallbackFactory.INSTANCE
        .createIoOpCallback(index);
    return new ILSMIOOperationCallback() {
      @Override
      public void scheduled(ILSMIOOperation op) throws HyracksDataException {
        if (counted(op)) {
          synchronized (monitor) {
            inFlight++;
          }
        }
        base.scheduled(op);
      }

      @Override
      public void beforeOperation(ILSMIOOperation op) throws HyracksDataException {
        base.beforeOperation(op);
        if (counted(op)) {
          running.put(Thread.currentThread(), op.getIOOpertionType());
        }
      }

      @Override
      public void afterOperation(ILSMIOOperation op) throws HyracksDataException {
        running.remove(Thread.currentThread());
        base.afterOperation(op);
      }

      @Override
      public void afterFinalize(ILSMIOOperation op) throws HyracksDataException {
        base.afterFinalize(op);
        ILSMDiskComponent c = op.getNewComponent();
        if (c != null && op.getStatus() != ILSMIOOperation.LSMIOOperationStatus.FAILURE) {
          if (op.getIOOpertionType() == LSMIOOperationType.FLUSH) {
            bytesFlushed.addAndGet(c.getComponentSize());
          } else if (op.getIOOpertionType() == LSMIOOperationType.MERGE) {
            bytesMerged.addAndGet(c.getComponentSize());
          }
        }
      }

      @Override
      public void completed(ILSMIOOperation op) {
        base.completed(op);
        if (counted(op)) {
          synchronized (monitor) {
            inFlight--;
            monitor.notifyAll();
          }
        }
      }

      @Override
      public void recycled(ILSMMemoryComponent component) throws HyracksDataException {
        base.recycled(component);
      }

      @Override
      public void allocated(ILSMMemoryComponent component) throws HyracksDataException {
        base.allocated(component);
      }
    };
  }

  private static boolean counted(ILSMIOOperation op) {
    return op.getIOOpertionType() == LSMIOOperationType.FLUSH
        || op.getIOOpertionType() == LSMIOOperationType.MERGE;
  }

  @Override
  public int getCurrentMemoryComponentIndex() throws HyracksDataException {
    return NoOpIOOperationCallbackFactory.INSTANCE.getCurrentMemoryComponentIndex();
  }

  @Override
  public JsonNode toJson(IPersistedResourceRegistry registry) throws HyracksDataException {
    throw new UnsupportedOperationException("standalone trees are not persisted as resources");
  }
}
