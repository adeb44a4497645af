package org.strata.cli;

import java.nio.file.Path;
import org.strata.lsm.engine.LsmStore;
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

  /**
   * The configuration read from {@code --config}, with the merge policy and scheduler it names
   * created once, so that every error of the file names it; null without {@code --config}.
   */
  StoreConfig configOrNull() {
    if (config == null) {
      return null;
    }
    StoreConfig c = ConfigFiles.naming(config.toString(), () -> StoreConfigJson.read(config));
    ConfigFiles.check(config.toString(), "", c);
    return c;
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
    // An error the engine finds in a configuration from --config names the file.
    String source = config != null && this.config != null ? this.config.toString() : null;
    return StoreLog.open(mixee, dir,
        () -> ConfigFiles.naming(source, () -> LsmStore.open(dir, config)));
  }
}
