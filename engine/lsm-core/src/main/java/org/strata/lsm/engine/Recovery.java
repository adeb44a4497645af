package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StoreStats;
import org.strata.lsm.events.RecoveryEvent;
import org.strata.lsm.StrataException;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.io.CreatedPaths;
import org.strata.lsm.io.Directories;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeScheduler;

/**
 * What an index does when it opens, before it takes writes: reads the manifest, notes the files
 * an interrupted flush or merge left (temporary files, and component files the manifest does not
 * list), opens the listed components into the {@link VersionSet}, and replays the write-ahead log
 * above the manifest's flushed sequence number into the active memory component. Only then are
 * the noted files deleted and flushes and merges started ({@link LsmTree#start()}), so an open
 * refused for a corrupt log changes nothing on disk. The log is the tree's {@link TreeGroup}'s: a
 * store's group of one replays it here ({@link StoreForm#recoverLog}); a dataset partition's group
 * replays its shared log into every tree and then starts them ({@link GroupRecovery}).
 */
final class Recovery {
  private static final Logger LOG = LogManager.getLogger(LsmTree.class);

  private Recovery() {}

  /**
   * Opens (or creates) the store in {@code dir}, a {@link TreeGroup} of one tree: refuses a path
   * that is not a directory, creates {@code log.dir} first, takes the directory lock, recovers the
   * components and replays the store's log ({@link StoreForm#recoverLog}), saves the configuration
   * and starts (deletes the leftovers of a crash, starts flushing and merging). A refused open
   * leaves the file system as it found it.
   *
   * @param requested the configuration, or null for the saved one (or the defaults)
   */
  static Store open(Path dir, StoreConfig requested, StoreEnvironment env) {
    Path savedConfig = dir.resolve(LsmTree.CONFIG_FILE);
    StoreConfig config = withAbsoluteLogDir(dir, configuration(requested, savedConfig, env),
        requested == null ? savedConfig : null, env);
    StoreEnvironment storeEnv = onDevice(config, env);
    Path logDir = config.log().dir() == null ? null : Path.of(config.log().dir());
    StoreForm group = StoreForm.open(dir, config, storeEnv);
    LsmTree tree = open(dir, requested, config, savedConfig, logDir,
        stats -> group.services(dir, config, stats), storeEnv, (t, manifest, created) -> {
          group.recoverLog(t, manifest, created, requested == null ? savedConfig : null);
          // Saved only once recovery has succeeded, so that a refused open writes no
          // configuration.
          if (requested != null || !Files.exists(savedConfig)) {
            writeConfig(dir, config, storeEnv.fileIo());
          }
          group.start();
        }, group::release);
    return new Store(group.group(), tree);
  }

  /**
   * Opens (or creates) the tree of a dataset partition's index in {@code dir}, as a member of
   * {@code group}, and recovers its components. It is returned recovered but not started: its
   * group replays the shared log into it first, then calls {@link LsmTree#saveConfig()} and
   * {@link LsmTree#start()} ({@link TreeGroup#start()}).
   */
  static LsmTree openMember(Path dir, StoreConfig requested, StoreEnvironment env,
      TreeGroup group) {
    Path savedConfig = dir.resolve(LsmTree.CONFIG_FILE);
    StoreConfig config = configuration(requested, savedConfig, env);
    return open(dir, requested, config, savedConfig, null,
        stats -> group.services(dir, config, stats), env, (tree, manifest, created) -> { },
        () -> { });
  }

  /**
   * What the open of a tree does once its components have recovered (a store: replay its log,
   * save and start).
   */
  private interface Recovered {
    void accept(LsmTree tree, Manifest manifest, CreatedPaths created) throws IOException;
  }

  /** {@code requested}, or the saved configuration, or the defaults. */
  private static StoreConfig configuration(StoreConfig requested, Path savedConfig,
      StoreEnvironment env) {
    if (requested != null) {
      return requested;
    }
    return Files.exists(savedConfig) ? StoreConfigJson.read(savedConfig, env.fileIo())
        : StoreConfig.defaults();
  }

  /**
   * The open both kinds of tree share: validates the plug-ins, creates the directories, takes the
   * lock and recovers; on a failure releases everything and removes what it created.
   *
   * @param logDir the store's own {@code log.dir} to create first, or null
   * @param services what the tree's group lends it
   * @param release on a failure, once the tree is abandoned: releases what the group holds (a
   *     store's: its log and flush thread), before what the open created is removed
   */
  private static LsmTree open(Path dir, StoreConfig requested, StoreConfig config,
      Path savedConfig, Path logDir, TreeServices.Factory services, StoreEnvironment env,
      Recovered then, Runnable release) {
    // Validate plug-ins before anything is written; a bad name in the saved file names the file.
    MergePolicy policy;
    MergeScheduler scheduler;
    try {
      policy = Plugins.mergePolicy(config.mergePolicy());
      scheduler = Plugins.mergeScheduler(config.mergeScheduler());
    } catch (InvalidConfigurationException e) {
      throw requested != null ? e : namingFile(savedConfig, e);
    }
    DirectoryLock lockHeld = null;
    LsmTree tree = null;
    // A refused open leaves the file system as it found it: what this open creates is removed.
    CreatedPaths created = new CreatedPaths();
    try {
      createDirectories(dir, logDir, created);
      lockHeld = DirectoryLock.acquire(dir, "store " + dir + " is in use by another process (or"
          + " is already open in this one); close it first");
      tree = new LsmTree(dir, config, env, lockHeld, policy, scheduler, services);
      RecoveryEvent event = new RecoveryEvent();
      event.begin();
      Manifest manifest = tree.recover();
      then.accept(tree, manifest, created);
      if (event.shouldCommit()) {
        StoreStats s = tree.stats();
        event.store = dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
        event.diskComponents = s.diskComponents();
        event.replayedEntries = s.memoryEntries();
        event.commit();
      }
      return tree;
    } catch (IOException | RuntimeException e) {
      cleanupFailedOpen(tree, scheduler, lockHeld);
      release.run();
      created.removeAll();
      if (e instanceof IOException) {
        throw new StorageException("cannot open store " + dir + ": " + e, e);
      }
      throw (RuntimeException) e;
    }
  }

  /**
   * {@code env} with every file step of the store on the device model {@code config} names, if
   * any (a dataset's partitions share the dataset's: Dataset wraps their environment).
   */
  private static StoreEnvironment onDevice(StoreConfig config, StoreEnvironment env) {
    if (config.device() == null) {
      return env;
    }
    return new StoreEnvironment(env.clock(), new org.strata.lsm.io.DeviceFileIo(env.fileIo(),
        config.device().open(env.clock())), env.crashPoints());
  }

  /** {@code e} with the saved configuration file named in front, unless it names it already. */
  private static InvalidConfigurationException namingFile(Path savedConfig,
      InvalidConfigurationException e) {
    if (String.valueOf(e.getMessage()).contains(savedConfig.toString())) {
      return e;
    }
    InvalidConfigurationException named =
        new InvalidConfigurationException(savedConfig + ": " + e.getMessage());
    named.initCause(e);
    return named;
  }

  /**
   * Refuses a {@code dir} that is not a directory, creates a store's own {@code log.dir}
   * and then {@code dir}, noting what it created.
   */
  private static void createDirectories(Path dir, Path logDir, CreatedPaths created)
      throws IOException {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new StrataException(dir + " exists and is not a directory");
    }
    if (logDir != null) {
      // Before anything else is written: a log.dir that cannot be created refuses the open.
      createLogDir(created, logDir);
    }
    if (Files.isDirectory(dir)) {
      created.watch(dir);
    } else {
      created.createDirectories(dir);
    }
  }

  /** Releases what a failed open holds: the tree if it was built, else the scheduler and lock. */
  private static void cleanupFailedOpen(LsmTree tree, MergeScheduler scheduler,
      DirectoryLock lockHeld) {
    try {
      if (tree != null) {
        tree.abandon(); // closes the scheduler, the components and the lock
      } else {
        scheduler.close();
        if (lockHeld != null) {
          lockHeld.close();
        }
      }
    } catch (IOException | RuntimeException suppressed) {
      LOG.warn("cleanup after a failed open: {}", suppressed.toString());
    }
  }

  /**
   * {@code config} with its {@code log.dir} resolved against the store directory {@code dir}
   * (absolute), as it is saved. A relative {@code log.dir} in a saved configuration of a store
   * written before log ids ({@code savedFrom} not null, the manifest holding no log id) was
   * resolved against the working directory by the build that wrote it: that is refused, since
   * nothing tells which directory the log is in. For such a store, a saved {@code log.dir} that is
   * not a directory is refused too (there is no record of where the log was).
   */
  static StoreConfig withAbsoluteLogDir(Path dir, StoreConfig config, Path savedFrom,
      StoreEnvironment env) {
    String d = config.log().dir();
    if (d == null) {
      return config;
    }
    boolean legacy = false;
    if (savedFrom != null && Files.exists(dir.resolve(Manifest.FILE))) {
      try {
        Manifest m = Manifest.read(dir, env.fileIo());
        legacy = m != null && m.logId() == null;
      } catch (IOException | RuntimeException e) {
        legacy = false; // the open reports the manifest itself
      }
    }
    if (legacy && !Path.of(d).isAbsolute()) {
      throw InvalidConfigurationException.keyed("log.dir", "'" + d + "' in " + savedFrom
          + " is a relative path, which the build that wrote this store resolved against the"
          + " working directory of each process; give the log's absolute directory in a"
          + " configuration (--config) once, and it is saved absolute");
    }
    Path abs = LogLocation.configured(dir, config);
    if (legacy && !Files.isDirectory(abs)) {
      // A damaged log.dir would otherwise open an empty new log and lose the unflushed writes.
      throw InvalidConfigurationException.keyed("log.dir", "'" + d + "' in " + savedFrom
          + " is not a directory, but the store exists (it has a " + Manifest.FILE + "): the"
          + " saved configuration is damaged or the log directory was removed; open with a"
          + " configuration naming the log's directory");
    }
    return config.withLog(config.log().withDir(abs.toString()));
  }

  /** Creates {@code log.dir}, refusing the open with a message naming the key if it cannot be. */
  static void createLogDir(CreatedPaths created, Path logDir) {
    try {
      created.createDirectories(logDir);
    } catch (IOException e) {
      throw InvalidConfigurationException.of("log.dir", logDir, "a directory that exists or can be"
          + " created; creating it failed: " + e);
    }
  }

  static void writeConfig(Path dir, StoreConfig config, FileIo io) throws IOException {
    Directories.writeAtomically(io, dir.resolve(LsmTree.CONFIG_FILE), ByteBuffer.wrap(
        StoreConfigJson.toJson(config).getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Recovers the disk components of {@code dir} into {@code versions}, with {@code active} as the
   * only memory component. Files left by an interrupted flush or merge (temporary files and
   * component files the manifest does not list) are added to {@code leftovers}, for the caller to
   * delete once the whole open has succeeded (after the log replayed, so that an open refused for
   * a corrupt log changes nothing). Component file numbers are allocated above every number a
   * listed or left-over file carries, so no new file can take the name of a leftover, even one
   * not yet deleted.
   *
   * @return the manifest read (an empty one for a new index), with that next file number
   */
  static Manifest recoverComponents(Path dir, ComponentFiles files, VersionSet versions,
      MemoryComponent active, Logger log, List<Path> leftovers) throws IOException {
    Manifest m = Manifest.read(dir, files.io());
    if (m == null) {
      refuseComponentsWithoutManifest(dir);
      m = Manifest.empty();
    }
    Set<String> listed = new HashSet<>();
    long nextFileNumber = m.nextFileNumber();
    for (Manifest.RunEntry r : m.runs()) {
      listed.addAll(r.files());
      for (String f : r.files()) {
        if (ComponentFiles.isComponentFile(f)) {
          nextFileNumber = Math.max(nextFileNumber, ComponentFiles.fileNumber(f) + 1);
        }
      }
    }
    try (Stream<Path> found = Files.list(dir)) {
      for (Path p : (Iterable<Path>) found::iterator) {
        String n = p.getFileName().toString();
        if (ComponentFiles.isTemporary(n)
            || (ComponentFiles.isComponentFile(n) && !listed.contains(n))) {
          log.info("found {} left by an interrupted flush or merge; it is deleted once the open"
              + " has succeeded", n);
          leftovers.add(p);
          String component = ComponentFiles.isTemporary(n)
              ? n.substring(0, n.length() - ".tmp".length()) : n;
          if (ComponentFiles.isComponentFile(component)) {
            nextFileNumber = Math.max(nextFileNumber, ComponentFiles.fileNumber(component) + 1);
          }
        }
      }
    }
    nextFileNumber = Math.max(nextFileNumber, logSegmentLeftovers(files.logDir(), listed, log,
        leftovers));
    m = new Manifest(nextFileNumber, m.nextComponentId(), m.flushedLsn(), m.runs(), m.counters(),
        m.identities(), m.logId(), m.logDir());
    List<Run> runs = new ArrayList<>();
    try {
      for (Manifest.RunEntry r : m.runs()) {
        List<DiskComponent> cs = new ArrayList<>();
        for (String f : r.files()) {
          if (!Files.exists(dir.resolve(f))) {
            throw new CorruptionException(dir.resolve(Manifest.FILE), -1,
                "the manifest lists component " + f + " but the file is missing");
          }
          DiskComponent c = files.open(f);
          cs.add(c);
          checkIdentity(dir, m, f, c);
        }
        runs.add(new Run(0, r.level(), cs)); // the version set numbers the runs
      }
    } catch (RuntimeException e) {
      for (Run r : runs) {
        r.components().forEach(DiskComponent::release);
      }
      throw e;
    }
    versions.recovered(m, runs, active);
    return m;
  }

  /**
   * Refuses a directory without a manifest that holds component files: a store's manifest is
   * written when it is created, before any component, so its absence there means it was removed
   * (an open would take every component for a leftover and delete it).
   */
  private static void refuseComponentsWithoutManifest(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    long n;
    try (Stream<Path> s = Files.list(dir)) {
      n = s.filter(p -> ComponentFiles.isComponentFile(p.getFileName().toString())).count();
    }
    if (n > 0) {
      throw new CorruptionException(dir.resolve(Manifest.FILE), -1, "the manifest is missing but"
          + " the directory holds " + n + " component file(s); the manifest lists which of them"
          + " are the store, so nothing is opened (restore the MANIFEST from a backup)");
    }
  }

  /**
   * Refuses a component file that is not the one the manifest listed under its name ({@link
   * ComponentIdentity}); a manifest written before identities records none and any file passes.
   */
  static void checkIdentity(Path dir, Manifest m, String name, DiskComponent c) {
    ComponentIdentity recorded = m.identities().get(name);
    if (recorded == null) {
      return;
    }
    String mismatch = recorded.mismatch(ComponentIdentity.of(c));
    if (mismatch != null) {
      throw new CorruptionException(dir.resolve(name), -1, "not the component the manifest"
          + " lists under this name: " + mismatch + " (the file was swapped, copied over, or"
          + " restored from another copy of the store)");
    }
  }

  /**
   * TRIAD-LOG: notes the CL-SSTable segments ({@code <number>.clog}) in {@code logDir} whose index
   * file the manifest does not list (left by an interrupted flush, or by a crash after the merge
   * that consumed them), and returns the file number above all of them.
   */
  private static long logSegmentLeftovers(Path logDir, Set<String> listed, Logger log,
      List<Path> leftovers) throws IOException {
    long next = 0;
    if (logDir == null || !Files.isDirectory(logDir)) {
      return next;
    }
    try (Stream<Path> found = Files.list(logDir)) {
      for (Path p : (Iterable<Path>) found::iterator) {
        String n = p.getFileName().toString();
        if (ComponentFiles.isLogSegmentFile(n)) {
          long number = ComponentFiles.fileNumber(n);
          next = Math.max(next, number + 1);
          if (!listed.contains(ComponentFiles.logIndexName(number))) {
            log.info("found CL-SSTable segment {} that no listed component uses; it is deleted"
                + " once the open has succeeded", n);
            leftovers.add(p);
          }
        }
      }
    }
    return next;
  }

  /** Deletes the files {@link #recoverComponents} noted, once the open has succeeded. */
  static void deleteLeftovers(List<Path> leftovers, FileIo io, Logger log) throws IOException {
    for (Path p : leftovers) {
      log.info("deleting {} left by an interrupted flush or merge", p.getFileName());
      io.delete(p);
    }
  }
}
