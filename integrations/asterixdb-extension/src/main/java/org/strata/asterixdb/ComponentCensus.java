package org.strata.asterixdb;

import java.util.ArrayList;
import java.util.List;
import org.apache.asterix.common.api.INcApplicationContext;
import org.apache.asterix.common.context.IndexInfo;
import org.apache.hyracks.control.nc.NodeControllerService;
import org.strata.asterix.ComponentNames;

/**
 * The disk components of the open indexes of a node controller in this process, per storage
 * partition: what the node's LSM indexes hold right now.
 */
public final class ComponentCensus {
  private ComponentCensus() {}

  /**
   * One open index.
   *
   * @param node the node controller
   * @param path where the index lives
   * @param diskComponents its disk components now
   * @param componentSizes their sizes in bytes, newest first
   * @param componentNames their flush sequence ranges {@code S_E}, newest first ({@link
   *     ComponentNames#of})
   */
  public record IndexComponents(String node, IndexPath path, int diskComponents,
      List<Long> componentSizes, List<String> componentNames) {}

  /** The open user indexes of a node (those under a storage partition). */
  public static List<IndexComponents> of(NodeControllerService nc) {
    INcApplicationContext app = (INcApplicationContext) nc.getApplicationContext();
    List<IndexComponents> out = new ArrayList<>();
    for (IndexInfo info : app.getDatasetLifecycleManager().getOpenIndexesInfo()) {
      IndexPath.of(info.getIndex().getIndexIdentifier()).ifPresent(p -> {
        List<Long> sizes = new ArrayList<>();
        List<String> names = new ArrayList<>();
        info.getIndex().getDiskComponents().forEach(c -> {
          sizes.add(c.getComponentSize());
          names.add(ComponentNames.of(c));
        });
        out.add(new IndexComponents(nc.getId(), p, sizes.size(), sizes, names));
      });
    }
    return out;
  }
}
