package org.strata.asterixdb;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where an AsterixDB 0.9.8 index lives, read from its directory: {@code
 * <io device>/storage/partition_<p>/<dataverse>/<dataset>/<rebalance>/<index>}.
 *
 * @param partition the storage partition
 * @param dataverse the dataverse
 * @param dataset the dataset
 * @param index the index (the dataset's name for its primary index)
 */
public record IndexPath(int partition, String dataverse, String dataset, String index) {
  /** The path's parts, if it lies under a storage partition directory. */
  public static Optional<IndexPath> of(String path) {
    if (path == null) {
      return Optional.empty();
    }
    Path p = Path.of(path).normalize();
    for (int i = 0; i + 4 < p.getNameCount(); i++) {
      String part = p.getName(i).toString();
      if (part.startsWith("partition_") && i > 0 && p.getName(i - 1).toString().equals("storage")) {
        try {
          int n = Integer.parseInt(part.substring("partition_".length()));
          return Optional.of(new IndexPath(n, p.getName(i + 1).toString(),
              p.getName(i + 2).toString(), p.getName(i + 4).toString()));
        } catch (NumberFormatException e) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }
}
