package org.strata.asterixdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.am.lsm.common.impls.EmptyComponent;
import org.junit.jupiter.api.Test;

/**
 * The flush sizes a node records are those of the flushes that added a disk component, read while
 * the component's files exist: AsterixDB completes a flush that found nothing to write with its
 * empty component, which the index does not add, and a merge the flush itself scheduled can delete
 * the flushed component's files before the flush completes (its size then reads 0). A merge-policy
 * simulator replaying the sizes refuses a size of 0; StrataOnAsterixDbIT failed on one under load.
 */
class OperationSizesTest {
  private static final String INDEX = "storage/partition_0/it/ds/0/ds";
  private static final String OTHER = "storage/partition_0/it/other/0/other";

  /** A component whose size is what {@code size} holds when asked (0 once its files are gone). */
  private static ILSMDiskComponent component(AtomicLong size) {
    return (ILSMDiskComponent) Proxy.newProxyInstance(OperationSizesTest.class.getClassLoader(),
        new Class<?>[] {ILSMDiskComponent.class}, (proxy, method, args) -> switch (
            method.getName()) {
          case "getComponentSize" -> size.get();
          case "toString" -> "component of " + size.get() + " bytes";
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  private static ILSMDiskComponent component(long size) {
    return component(new AtomicLong(size));
  }

  /** An operation whose status and component are what the references hold when asked. */
  private static ILSMIOOperation op(LSMIOOperationType type, String index,
      AtomicReference<LSMIOOperationStatus> status, AtomicReference<ILSMDiskComponent> result) {
    return (ILSMIOOperation) Proxy.newProxyInstance(OperationSizesTest.class.getClassLoader(),
        new Class<?>[] {ILSMIOOperation.class}, (proxy, method, args) -> switch (
            method.getName()) {
          case "getStatus" -> status.get();
          case "getNewComponent" -> result.get();
          case "getIndexIdentifier" -> index;
          case "getIOOpertionType" -> type;
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          case "toString" -> type + " of " + index;
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  private static ILSMIOOperation flush(LSMIOOperationStatus status, ILSMDiskComponent result) {
    return op(LSMIOOperationType.FLUSH, INDEX, new AtomicReference<>(status),
        new AtomicReference<>(result));
  }

  @Test
  void aFlushThatAddedNoComponentIsNotRecorded() {
    OperationSizes sizes = new OperationSizes();
    sizes.completed(flush(LSMIOOperationStatus.SUCCESS, component(8192)));
    sizes.completed(flush(LSMIOOperationStatus.SUCCESS, EmptyComponent.INSTANCE));
    sizes.completed(flush(LSMIOOperationStatus.FAILURE, component(4096)));
    sizes.completed(flush(LSMIOOperationStatus.SUCCESS, null));
    sizes.completed(flush(LSMIOOperationStatus.SUCCESS, component(12288)));
    assertThat(sizes.flushSizes()).isEqualTo(Map.of(INDEX, List.of(8192L, 12288L)));
  }

  @Test
  void aFlushedComponentAMergeDeletesBeforeTheFlushCompletesKeepsItsSize() {
    OperationSizes sizes = new OperationSizes();
    AtomicReference<LSMIOOperationStatus> status = new AtomicReference<>();
    AtomicReference<ILSMDiskComponent> built = new AtomicReference<>();
    ILSMIOOperation flush = op(LSMIOOperationType.FLUSH, INDEX, status, built);
    sizes.scheduled(flush);

    // A merge of another index, while the flush has not built its component: nothing to read.
    sizes.scheduled(op(LSMIOOperationType.MERGE, OTHER, new AtomicReference<>(),
        new AtomicReference<>()));
    // The flush builds its component and, inside the operation, its index schedules a merge of it.
    AtomicLong onDisk = new AtomicLong(8192);
    built.set(component(onDisk));
    AtomicReference<ILSMDiskComponent> mergeOutput = new AtomicReference<>();
    AtomicReference<LSMIOOperationStatus> mergeStatus = new AtomicReference<>();
    ILSMIOOperation merge = op(LSMIOOperationType.MERGE, INDEX, mergeStatus, mergeOutput);
    sizes.scheduled(merge);
    // The merge finishes first and deletes the flushed component's files; then the flush completes.
    mergeOutput.set(component(20_000));
    mergeStatus.set(LSMIOOperationStatus.SUCCESS);
    onDisk.set(0);
    sizes.completed(merge);
    status.set(LSMIOOperationStatus.SUCCESS);
    sizes.completed(flush);

    // A later flush read at its completion, as usual.
    sizes.completed(flush(LSMIOOperationStatus.SUCCESS, component(4096)));
    assertThat(sizes.flushSizes()).isEqualTo(Map.of(INDEX, List.of(8192L, 4096L)));
    assertThat(sizes.mergedBytes()).isEqualTo(Map.of(INDEX, 20_000L));
  }

  @Test
  void aMergeOutputMergedAgainBeforeItsMergeCompletesCountsItsBytes() {
    OperationSizes sizes = new OperationSizes();
    AtomicReference<LSMIOOperationStatus> status = new AtomicReference<>();
    AtomicLong onDisk = new AtomicLong(30_000);
    AtomicReference<ILSMDiskComponent> built = new AtomicReference<>();
    ILSMIOOperation first = op(LSMIOOperationType.MERGE, INDEX, status, built);
    sizes.scheduled(first);
    built.set(component(onDisk));
    ILSMIOOperation second = op(LSMIOOperationType.MERGE, INDEX,
        new AtomicReference<>(LSMIOOperationStatus.SUCCESS),
        new AtomicReference<>(component(50_000)));
    sizes.scheduled(second);
    onDisk.set(0);
    sizes.completed(second);
    status.set(LSMIOOperationStatus.SUCCESS);
    sizes.completed(first);
    assertThat(sizes.mergedBytes()).isEqualTo(Map.of(INDEX, 80_000L));
  }
}
