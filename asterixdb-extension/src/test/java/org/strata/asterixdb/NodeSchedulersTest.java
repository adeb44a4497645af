package org.strata.asterixdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMDiskComponent;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.impls.EmptyComponent;
import org.junit.jupiter.api.Test;

/**
 * The flush sizes a node records are the flushes that added a disk component: AsterixDB completes
 * a flush that found nothing to write with its empty component, which the index does not add, and
 * a merge-policy simulator replaying the sizes must not see it (it refuses a size of 0).
 */
class NodeSchedulersTest {
  private static final String INDEX = "storage/partition_0/it/ds/0/ds";

  private static ILSMDiskComponent component(long size) {
    return (ILSMDiskComponent) Proxy.newProxyInstance(NodeSchedulersTest.class.getClassLoader(),
        new Class<?>[] {ILSMDiskComponent.class}, (proxy, method, args) -> switch (
            method.getName()) {
          case "getComponentSize" -> size;
          case "toString" -> "component of " + size + " bytes";
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  private static ILSMIOOperation flush(LSMIOOperationStatus status, ILSMDiskComponent result) {
    return (ILSMIOOperation) Proxy.newProxyInstance(NodeSchedulersTest.class.getClassLoader(),
        new Class<?>[] {ILSMIOOperation.class}, (proxy, method, args) -> switch (
            method.getName()) {
          case "getStatus" -> status;
          case "getNewComponent" -> result;
          case "getIndexIdentifier" -> INDEX;
          case "toString" -> "flush";
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void aFlushThatAddedNoComponentIsNotRecorded() {
    NodeSchedulers node = new NodeSchedulers("nc1", ExtensionSettings.DEFAULTS,
        Executors.defaultThreadFactory());
    node.flushCompleted(flush(LSMIOOperationStatus.SUCCESS, component(8192)));
    node.flushCompleted(flush(LSMIOOperationStatus.SUCCESS, EmptyComponent.INSTANCE));
    node.flushCompleted(flush(LSMIOOperationStatus.FAILURE, component(4096)));
    node.flushCompleted(flush(LSMIOOperationStatus.SUCCESS, null));
    node.flushCompleted(flush(LSMIOOperationStatus.SUCCESS, component(12288)));
    assertThat(node.flushSizes()).isEqualTo(Map.of(INDEX, List.of(8192L, 12288L)));
  }
}
