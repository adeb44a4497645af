package org.strata.lsm.dataset;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StrataException;
import org.strata.lsm.engine.LogLocation;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.io.CreatedPaths;
import org.strata.lsm.io.Directories;
import org.strata.lsm.io.DirectoryLock;

/**
 * How {@link Dataset#open} opens a dataset: the configuration to use (given, checked against the
 * saved one, or saved), its plug-ins and layout checked before anything is written, the
 * directories created, the partitions recovered and started, and the dataset's own files saved
 * last; a refused open removes what it created and writes nothing.
 */
final class DatasetOpen {
  private static final Logger LOG = LogManager.getLogger(Dataset.class);
  private static final String CONFIG_FILE = Dataset.CONFIG_FILE;

  private DatasetOpen() {}

  /**
   * Opens the dataset in {@code dir}, creating it if absent. {@code config}, when given, is
   * validated and saved; it may change the store settings of an existing dataset but not its
   * indexes, maintenance or partitions. When null, the saved configuration is used.
   *
   * @throws InvalidConfigurationException for a bad configuration, before anything is written
   */
  static Dataset open(Path dir, DatasetConfig config, StoreEnvironment env) {
    Path saved = dir.resolve(CONFIG_FILE);
    DatasetConfig cfg = configToOpen(dir, config, saved, env);
    validatePlugins(cfg, config, saved);
    cfg = withAbsoluteLogDir(dir, config, cfg, saved);
    checkLayout(dir, cfg, saved);
    DirectoryLock lockHeld = null;
    Dataset ds = null;
    // A refused open leaves the file system as it found it: what this open creates is removed.
    CreatedPaths created = new CreatedPaths();
    try {
      createDirectories(dir, cfg, created);
      lockHeld = DirectoryLock.acquire(dir, "dataset " + dir + " is in use by another process"
          + " (or is already open in this one); close it first");
      ds = new Dataset(dir, cfg, lockHeld);
      ds.openPartitions(env, created, config == null ? saved : null);
      ds.startPartitions(created);
      saveFiles(dir, config, cfg, saved, env);
      return ds;
    } catch (IOException e) {
      cleanupFailedOpen(ds, lockHeld);
      created.removeAll();
      throw new StorageException("cannot open dataset " + dir + ": " + e, e);
    } catch (RuntimeException e) {
      cleanupFailedOpen(ds, lockHeld);
      created.removeAll();
      throw e;
    }
  }

  /**
   * The configuration an open uses: {@code config}, checked against the saved one, or the saved
   * one when {@code config} is null.
   */
  private static DatasetConfig configToOpen(Path dir, DatasetConfig config, Path saved,
      StoreEnvironment env) {
    if (!Files.exists(saved) && (Files.exists(dir.resolve("MANIFEST"))
        || Files.exists(dir.resolve("config.json")))) {
      throw new InvalidConfigurationException(dir + " holds a single-index store, not a dataset;"
          + " give a new directory");
    }
    DatasetConfig cfg = config;
    if (cfg == null) {
      if (!Files.exists(saved)) {
        throw new InvalidConfigurationException(dir + " holds no dataset (no " + CONFIG_FILE
            + "); create it with a configuration, e.g. strata import --config FILE");
      }
      cfg = DatasetConfigJson.read(saved, env.fileIo());
    } else if (Files.exists(saved)) {
      DatasetConfig old = DatasetConfigJson.read(saved, env.fileIo());
      if (!old.sameLayout(cfg)) {
        throw new InvalidConfigurationException("the configuration changes the secondary indexes,"
            + " secondary-maintenance or partitions of the existing dataset " + dir + " (saved: "
            + describe(old) + "; given: " + describe(cfg) + "); these are fixed at creation");
      }
    }
    return cfg;
  }

  /** Validates the plug-ins before anything is written. */
  private static void validatePlugins(DatasetConfig cfg, DatasetConfig config, Path saved) {
    try {
      Plugins.mergePolicy(cfg.store().mergePolicy());
      Plugins.mergeScheduler(cfg.store().mergeScheduler()).close();
    } catch (InvalidConfigurationException e) {
      throw config != null ? e : namingFile(saved, e);
    }
  }

  /** {@code cfg} with its log directory, if any, resolved against the dataset directory. */
  private static DatasetConfig withAbsoluteLogDir(Path dir, DatasetConfig config,
      DatasetConfig cfg, Path saved) {
    String logDir = cfg.store().log().dir();
    if (logDir == null) {
      return cfg;
    }
    // Relative to the dataset directory, never the working directory; saved absolute.
    boolean legacy = config == null
        && LogLocation.writtenBeforeLogIds(dir.resolve("p0").resolve(SecondaryIndexSpec.PRIMARY));
    if (legacy && !Path.of(logDir).isAbsolute()) {
      throw InvalidConfigurationException.keyed("log.dir", "'" + logDir + "' in " + saved
          + " is a relative path, which the build that wrote this dataset resolved against the"
          + " working directory of each process; give the logs' absolute directory in a"
          + " configuration once, and it is saved absolute");
    }
    Path abs = dir.toAbsolutePath().normalize().resolve(logDir).normalize();
    if (legacy && !Files.isDirectory(abs)) {
      // A damaged log.dir would otherwise open empty new logs and lose the unflushed writes.
      throw InvalidConfigurationException.keyed("log.dir", "'" + logDir + "' in " + saved
          + " is not a directory, but the dataset exists: the saved configuration is damaged or"
          + " the log directory was removed; open with a configuration naming the logs'"
          + " directory");
    }
    return cfg.withStore(cfg.store().withLog(cfg.store().log().withDir(abs.toString())));
  }

  /**
   * A saved configuration must describe the directories on disk: a damaged dataset.json that
   * names another partition count or index would route reads to empty partitions or indexes.
   */
  private static void checkLayout(Path dir, DatasetConfig cfg, Path saved) {
    if (!Files.exists(saved)) {
      return;
    }
    String mismatch;
    try {
      mismatch = DatasetLayout.mismatch(dir, cfg);
      if (mismatch == null) {
        mismatch = DatasetVerifier.layoutMismatch(dir, cfg);
      }
    } catch (IOException e) {
      throw new StorageException("cannot open dataset " + dir + ": " + e, e);
    }
    if (mismatch != null) {
      throw new CorruptionException(saved, -1, mismatch + "; " + CONFIG_FILE + " is damaged or"
          + " the partition directories were changed, and nothing was opened");
    }
  }

  /** Creates the log directory, then the dataset directory, noting what it created. */
  private static void createDirectories(Path dir, DatasetConfig cfg, CreatedPaths created)
      throws IOException {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new StrataException(dir + " exists and is not a directory");
    }
    if (cfg.store().log().dir() != null) {
      // Before anything else is written: a log.dir that cannot be created refuses the open.
      try {
        created.createDirectories(Path.of(cfg.store().log().dir()));
      } catch (IOException e) {
        throw InvalidConfigurationException.of("log.dir", cfg.store().log().dir(), "a directory"
            + " that exists or can be created; creating it failed: " + e);
      }
    }
    if (Files.isDirectory(dir)) {
      created.watch(dir);
    } else {
      created.createDirectories(dir);
    }
  }

  /**
   * Deletes the temporary files of a crashed rewrite of the dataset's own files and saves the
   * layout and configuration, once every partition has recovered.
   */
  private static void saveFiles(Path dir, DatasetConfig config, DatasetConfig cfg, Path saved,
      StoreEnvironment env) throws IOException {
    // As the partitions delete theirs: the temporary files of a crashed rewrite of the
    // dataset's own files (an open with a configuration rewrites dataset.json).
    env.fileIo().delete(dir.resolve(CONFIG_FILE + ".tmp"));
    env.fileIo().delete(dir.resolve(DatasetLayout.FILE + ".tmp"));
    // Saved only once every partition has recovered, so a refused open writes no configuration.
    // The layout first: it is fixed at creation, and dataset.json is checked against it.
    if (!Files.exists(saved) || !Files.exists(dir.resolve(DatasetLayout.FILE))) {
      DatasetLayout.write(env.fileIo(), dir, cfg);
    }
    if (config != null) {
      writeConfig(dir, cfg, env);
    }
  }

  /** {@code e} with {@code file} named in front, unless it names it already. */
  private static InvalidConfigurationException namingFile(Path file,
      InvalidConfigurationException e) {
    if (String.valueOf(e.getMessage()).contains(file.toString())) {
      return e;
    }
    InvalidConfigurationException named =
        new InvalidConfigurationException(file + ": " + e.getMessage());
    named.initCause(e);
    return named;
  }

  private static String describe(DatasetConfig c) {
    List<String> s = new ArrayList<>();
    c.secondaryIndexes().forEach(x -> s.add(x.name() + "(" + x.field() + ")"));
    return "indexes " + s + ", " + c.maintenance().configName() + ", " + c.partitions()
        + " partition(s)";
  }

  private static void cleanupFailedOpen(Dataset ds, DirectoryLock lockHeld) {
    try {
      if (ds != null) {
        for (Partition p : ds.partitions()) {
          try {
            p.group().abandon(); // no flush, no manifest: a refused open writes nothing
          } catch (RuntimeException suppressed) {
            LOG.warn("cleanup after a failed open: {}", suppressed.toString());
          }
        }
      }
      if (lockHeld != null) {
        lockHeld.close();
      }
    } catch (IOException | RuntimeException suppressed) {
      LOG.warn("cleanup after a failed open: {}", suppressed.toString());
    }
  }

  private static void writeConfig(Path dir, DatasetConfig config, StoreEnvironment env)
      throws IOException {
    Directories.writeAtomically(env.fileIo(), dir.resolve(CONFIG_FILE),
        ByteBuffer.wrap(DatasetConfigJson.toJson(config).getBytes(StandardCharsets.UTF_8)));
  }
}
