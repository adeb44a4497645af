package org.strata.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.strata.lsm.dataset.Dataset;

/**
 * The check every command that only reads or changes existing data makes before it opens
 * anything: the directory must hold a store ({@code config.json} or {@code MANIFEST}) or a dataset
 * ({@code dataset.json}). A mistyped {@code --dir} is a usage error (exit 2) naming what was found
 * there, and nothing is created. Only {@code load}, {@code put}, {@code import} and {@code
 * feed-server} create stores and datasets.
 */
final class ExistingStore {
  private ExistingStore() {}

  /**
   * Returns normally if {@code dir} holds a store or a dataset; otherwise throws an {@link
   * IllegalArgumentException} (exit 2) that says what is there instead.
   */
  static void require(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException(dir + " is not a store or dataset: " + (Files.exists(dir)
          ? "it is not a directory" : "it does not exist")
          + " (only load, put, import and feed-server create one)");
    }
    if (!Dataset.isDataset(dir) && !Files.exists(dir.resolve("config.json"))
        && !Files.exists(dir.resolve("MANIFEST"))) {
      String what;
      try (Stream<Path> s = Files.list(dir)) {
        what = s.findAny().isPresent() ? "it holds no config.json, MANIFEST or dataset.json"
            : "it is empty";
      } catch (IOException e) {
        what = "it cannot be listed: " + e;
      }
      throw new IllegalArgumentException(dir + " is not a store or dataset: " + what);
    }
  }

  /** As {@link #require}, and the directory must hold a dataset, not a store. */
  static void requireDataset(Path dir) {
    require(dir);
    if (!Dataset.isDataset(dir)) {
      throw new IllegalArgumentException(dir + " holds a store, not a dataset (it has no "
          + Dataset.CONFIG_FILE + "); use get, scan and stats with a store");
    }
  }
}
