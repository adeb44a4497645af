package org.strata.cli;

import java.nio.file.Path;
import org.strata.lsm.LsmStore;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.dataset.Dataset;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The {@code --dir} and {@code --config} options shared by subcommands that open a store. */
final class StoreOptions {
  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "Store directory. Only load and put create one; every other command "
          + "refuses a directory that holds no store.")
  Path dir;

  @Spec(Spec.Target.MIXEE) CommandSpec mixee;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Configuration JSON (docs/configuration.md); saved with the store. "
          + "Default: the store's saved configuration, or the defaults for a new store.")
  Path config;

  StoreConfig configOrNull() {
    return config == null ? null : StoreConfigJson.read(config);
  }

  LsmStore open() {
    return open(configOrNull());
  }

  /**
   * Opens a store that already exists (for commands that read or delete): a directory that holds
   * no store or dataset is a usage error naming what is there, and nothing is created.
   */
  LsmStore openExisting() {
    ExistingStore.require(dir);
    return open();
  }

  /** Opens the store with {@code config} (null: saved or defaults); refuses a dataset. */
  LsmStore open(StoreConfig config) {
    if (Dataset.isDataset(dir)) {
      throw new IllegalArgumentException(dir + " is a dataset (it has " + Dataset.CONFIG_FILE
          + "); use strata import, query, get, scan and stats with it");
    }
    return StoreLog.open(mixee, dir, () -> LsmStore.open(dir, config));
  }
}
