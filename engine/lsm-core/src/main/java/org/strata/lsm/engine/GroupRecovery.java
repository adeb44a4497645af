package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.wal.LogCatalog;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * What a {@link TreeGroup} (a dataset partition) does when it opens, before it takes writes:
 * opens each member's tree ({@link Recovery}, which recovers its components), finds the shared log
 * the trees' manifests recorded ({@link LogLocation}) and replays into each tree the operations
 * above its flushed sequence number. It writes nothing: the log is replayed but not changed, and
 * the group opens it in {@link TreeGroup#start()} once every tree (a dataset: every partition) has
 * recovered.
 */
final class GroupRecovery {
  private static final Logger LOG = LogManager.getLogger(TreeGroup.class);

  /**
   * What recovery found of the shared log.
   *
   * @param replayed the replayed log, which {@link TreeGroup#start()} opens for appends
   * @param dir the log's directory
   * @param predatesOpen whether the log, or a tree's manifest, existed before this open: then the
   *     log's files must stay even if the open fails after the log was opened
   * @param stale an old, fully flushed log directory to remove once the group has started, or null
   * @param fileIo how the group's files are written (the stale log is removed through it)
   */
  record Log(WriteAheadLog.Replayed replayed, Path dir, boolean predatesOpen, Path stale,
      FileIo fileIo) {}

  private GroupRecovery() {}

  /** See {@link TreeGroup#open}: {@link #recoverGroup}, then {@link TreeGroup#start()}. */
  static TreeGroup open(Path dir, List<TreeGroup.Member> members, long memoryBudget,
      StoreConfig logSettings, IoThrottle throttle, StoreEnvironment env) {
    TreeGroup g = recoverGroup(dir, members, memoryBudget, logSettings, throttle, env, null);
    try {
      g.start();
    } catch (RuntimeException e) {
      g.abandon(e);
      throw e;
    }
    return g;
  }

  /** See {@link TreeGroup#recover}. */
  static TreeGroup recoverGroup(Path dir, List<TreeGroup.Member> members, long memoryBudget,
      StoreConfig logSettings, IoThrottle throttle, StoreEnvironment env, Path savedConfig) {
    if (members.isEmpty() || members.size() > TreeGroup.MAX_TREES) {
      throw new IllegalArgumentException("a tree group has 1 to " + TreeGroup.MAX_TREES
          + " trees, not " + members.size());
    }
    logSettings.log().checkShareable();
    TreeGroup g = TreeGroup.partition(dir, memoryBudget, logSettings, throttle, env);
    try {
      g.recovered(recover(g, dir, members, logSettings, env, savedConfig));
      return g;
    } catch (RuntimeException e) {
      // A refused open writes nothing: the trees are dropped without a flush or a manifest.
      g.abandon(e);
      throw e;
    }
  }

  /**
   * Opens the members' trees into {@code group} and replays the shared log into them. On a
   * failure the caller abandons the group, which releases the trees opened so far.
   */
  static Log recover(TreeGroup group, Path dir, List<TreeGroup.Member> members,
      StoreConfig logSettings, StoreEnvironment env, Path savedConfig) {
    List<LsmTree> trees = new ArrayList<>();
    long[] flushed = new long[members.size()];
    for (int i = 0; i < members.size(); i++) {
      TreeGroup.Member m = members.get(i);
      Path treeDir = dir.resolve(m.name());
      LsmTree t = Recovery.openMember(treeDir, m.config(), env, group);
      group.add(t);
      trees.add(t);
      flushed[i] = t.member().flushedLsn();
    }
    long replayFrom = Long.MAX_VALUE;
    long lsnFloor = 0;
    for (long f : flushed) {
      replayFrom = Math.min(replayFrom, f);
      lsnFloor = Math.max(lsnFloor, f);
    }
    LogLocation.Located where = locateLog(dir, members, trees, replayFrom, logSettings, env,
        savedConfig);
    Path logDir = where.dir();
    boolean predatesOpen = Files.exists(logDir.resolve(LogCatalog.FILE));
    for (LsmTree t : trees) {
      predatesOpen |= Files.exists(t.directory().resolve(Manifest.FILE));
    }
    WriteAheadLog.Replayed replayed = replayLog(dir, members, trees, flushed, replayFrom,
        lsnFloor, where, logSettings, env);
    return new Log(replayed, logDir, predatesOpen, where.stale(), env.fileIo());
  }

  /** The partition's log: the one its indexes' manifests recorded, where LogLocation finds it. */
  private static LogLocation.Located locateLog(Path dir, List<TreeGroup.Member> members,
      List<LsmTree> trees, long replayFrom, StoreConfig logSettings, StoreEnvironment env,
      Path savedConfig) {
    UUID recordedId = null;
    String recordedDir = null;
    String recordedBy = null;
    for (int i = 0; i < members.size(); i++) {
      LsmTree t = trees.get(i);
      UUID id = t.recordedLogId();
      if (id == null) {
        continue; // a new index, or one whose first manifest a crash interrupted
      }
      if (recordedId != null && !recordedId.equals(id)) {
        throw new CorruptionException(t.directory().resolve(Manifest.FILE), -1, "index "
            + members.get(i).name() + " of " + dir + " recorded log " + id + ", but index "
            + recordedBy + " recorded log " + recordedId + ": the index directories of"
            + " different partitions were mixed up; nothing was opened or changed");
      }
      recordedId = id;
      recordedDir = t.recordedLogDir();
      recordedBy = members.get(i).name();
    }
    try {
      return LogLocation.locate(dir, LogLocation.configured(dir, logSettings), recordedId,
          recordedDir, replayFrom, logSettings.log().recoveryMode(), env.fileIo(),
          savedConfig);
    } catch (IOException e) {
      throw new StorageException("cannot open the log of " + dir + ": " + e, e);
    }
  }

  /**
   * Replays the log into the trees (each operation above its tree's flushed sequence number),
   * changing no file.
   */
  private static WriteAheadLog.Replayed replayLog(Path dir, List<TreeGroup.Member> members,
      List<LsmTree> trees, long[] flushed, long replayFrom, long lsnFloor,
      LogLocation.Located where, StoreConfig logSettings, StoreEnvironment env) {
    Path logDir = where.dir();
    long[] replayed = new long[members.size()];
    WriteAheadLog.Replayed log = WriteAheadLog.replay(logDir, logSettings.log().durability(),
        logSettings.log().groupCommitIntervalMs(), env.fileIo(), logSettings.log().recoveryMode(),
        replayFrom, lsnFloor, where.owner(),
        (lsn, op) -> {
          int t = TreeTag.tree(op);
          if (t >= flushed.length) {
            throw new CorruptionException(logDir, -1, "log operation " + lsn + " names index "
                + t + " but the partition has " + flushed.length);
          }
          if (lsn > flushed[t]) {
            trees.get(t).member().insert(TreeTag.key(op), op.value(), lsn);
            replayed[t]++;
          }
        });
    for (int i = 0; i < replayed.length; i++) {
      if (replayed[i] > 0) {
        LOG.info("recovered {} operations of {} from the log of {}", replayed[i],
            members.get(i).name(), dir);
      }
    }
    return log;
  }

  /**
   * Once the log of the group in {@code dir} has replayed into every tree and is open for appends
   * (a store's group too): records it in each tree's manifest (and saves each tree's configuration
   * if {@code saveConfigs}), removes the old, fully flushed log directory recovery found ({@code
   * stale}, or null) and starts the trees' flushes and merges.
   */
  static void startTrees(List<LsmTree> trees, WriteAheadLog wal, Path dir, boolean saveConfigs,
      Path stale, FileIo io) {
    for (LsmTree t : trees) {
      try {
        t.recordLog(wal.logId(), wal.directory(), dir);
        if (saveConfigs) {
          t.saveConfig();
        }
      } catch (java.io.IOException e) {
        throw new StorageException("cannot save the configuration of " + t.directory() + ": "
            + e, e);
      }
    }
    if (stale != null) {
      LogLocation.removeStale(stale, io);
    }
    for (LsmTree t : trees) {
      try {
        t.start();
      } catch (java.io.IOException e) {
        throw new StorageException("cannot start " + t.directory() + ": " + e, e);
      }
    }
  }
}
