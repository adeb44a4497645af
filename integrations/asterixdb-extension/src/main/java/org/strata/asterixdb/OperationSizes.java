package org.strata.asterixdb;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.am.lsm.common.impls.EmptyComponent;

/**
 * The sizes of the disk components one node's flushes and merges add, per index: the flush sizes in
 * flush order (what a merge-policy simulator replays) and the bytes merges wrote.
 *
 * <p>A component's size is read from its files, so it must be read before a later merge deletes
 * them. AsterixDB adds a flush's (or merge's) component to its index, and asks the merge policy,
 * which may schedule a merge of it, inside the operation, before the operation completes; on a busy
 * machine that merge can finish and delete the component's files before the first operation's
 * completion runs, and the size then reads 0 (a simulator refuses it). So when a merge of an index
 * is scheduled, the sizes of the index's operations that have built their component and not yet
 * completed are read then; every other size is read when its operation completes.
 */
final class OperationSizes {
  // Flushes and merges scheduled and not completed, and whether their size has been read.
  private final Map<ILSMIOOperation, Boolean> inFlight = new IdentityHashMap<>();
  private final Map<String, List<Long>> flushSizes = new HashMap<>();
  private final Map<String, Long> mergedBytes = new HashMap<>();

  /** Called before a flush or merge is handed to its scheduler. */
  synchronized void scheduled(ILSMIOOperation op) {
    LSMIOOperationType type = op.getIOOpertionType();
    if (type == LSMIOOperationType.MERGE) {
      readBeforeMerge(op.getIndexIdentifier());
    }
    if (type == LSMIOOperationType.FLUSH || type == LSMIOOperationType.MERGE) {
      inFlight.put(op, false);
    }
  }

  /**
   * Called when a flush or merge completes. A flush that found nothing to write completes with
   * AsterixDB's empty component (size 0), which the index does not add: not a flush a simulator
   * should replay.
   */
  synchronized void completed(ILSMIOOperation op) {
    Boolean read = inFlight.remove(op);
    if (!Boolean.TRUE.equals(read) && op.getStatus() == LSMIOOperationStatus.SUCCESS
        && builtComponent(op)) {
      record(op);
    }
  }

  // Caller holds this.
  private void readBeforeMerge(String index) {
    for (Map.Entry<ILSMIOOperation, Boolean> e : inFlight.entrySet()) {
      ILSMIOOperation op = e.getKey();
      if (!e.getValue() && index.equals(op.getIndexIdentifier()) && builtComponent(op)) {
        record(op);
        e.setValue(true);
      }
    }
  }

  /** AsterixDB sets an operation's new component once the component is built and valid. */
  private static boolean builtComponent(ILSMIOOperation op) {
    ILSMDiskComponent c = op.getNewComponent();
    return c != null && c != EmptyComponent.INSTANCE;
  }

  // Caller holds this.
  private void record(ILSMIOOperation op) {
    long size = op.getNewComponent().getComponentSize();
    if (op.getIOOpertionType() == LSMIOOperationType.FLUSH) {
      flushSizes.computeIfAbsent(op.getIndexIdentifier(), k -> new ArrayList<>()).add(size);
    } else {
      mergedBytes.merge(op.getIndexIdentifier(), size, Long::sum);
    }
  }

  /** The sizes of the components each index flushed, in flush order, by index identifier. */
  synchronized Map<String, List<Long>> flushSizes() {
    Map<String, List<Long>> out = new HashMap<>();
    flushSizes.forEach((k, v) -> out.put(k, List.copyOf(v)));
    return out;
  }

  /** Bytes of the components each index's merges wrote, by index identifier. */
  synchronized Map<String, Long> mergedBytes() {
    return Map.copyOf(mergedBytes);
  }
}
