package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.strata.lsm.StallCause;
import org.strata.lsm.StoreStats.StallTotals;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.CreatedPaths;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.wal.LogOp;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * The {@link GroupForm} of a store: a group of one tree, in the group's own directory. The tree's
 * memory components are the memory budget, so a write is admitted by one decision over the
 * memory, the pacing and the component constraint, under one lock (the tree lock is the group's).
 * Its log holds its operations as they are, and is its own to use for TRIAD: TRIAD-MEM re-logs
 * the hot keys a seal carries and TRIAD-LOG flushes to CL-SSTables over the log's segments.
 */
final class StoreForm implements GroupForm {
  private static final Logger LOG = LogManager.getLogger(LsmTree.class);

  private final TreeGroup group;
  private final StoreConfig config;
  private final StoreEnvironment env;
  /** The group's one tree, once {@link #recoverLog} has it. */
  private LsmTree tree;
  /** An old, fully flushed log to remove once the open has succeeded ({@link LogLocation}). */
  private Path staleLogDir;

  /**
   * A store's group, in the store's directory {@code dir}, its one tree to open into it ({@link
   * Recovery#open}): the group's form, whose {@link #recoverLog} replays the store's log.
   */
  static StoreForm open(Path dir, StoreConfig config, StoreEnvironment env) {
    StoreForm[] form = new StoreForm[1];
    new TreeGroup(dir, config.log().durability(),
        new IoThrottle(config.io().writeRateLimit().bytes(), env.clock()), env.clock(),
        env.crashPoints(), group -> form[0] = new StoreForm(group, config, env));
    return form[0];
  }

  private StoreForm(TreeGroup group, StoreConfig config, StoreEnvironment env) {
    this.group = group;
    this.config = config;
    this.env = env;
  }

  @Override
  public TreeServices services(Path treeDir, StoreConfig treeConfig, EngineStats stats) {
    LogOwner owner = group.logOwner();
    // TRIAD-MEM, or null when off; made with the tree's statistics.
    TriadMem mem = !config.triad().mem() ? null : new TriadMem(config.triad(),
        config.memoryComponent().memtableBytes(), c -> stats.relogged(c.entries(), c.bytes()));
    return new TreeServices(group.lock(), group.throttle(), owner.switchLock(),
        group.executor(), group::sealAll,
        mem == null ? null
            : (sealed, fresh) -> mem.carry(sealed, fresh, ops -> owner.wal().append(ops)),
        new StoreLogHold(owner::wal, mem, env.crashPoints()),
        LogLocation.configured(treeDir, config),
        config.triad().log()
            ? (btree, files, versions, log) -> new ClSsTableFlush(treeDir, log, files, versions,
                owner::wal, btree)
            : (btree, files, versions, log) -> btree);
  }

  @Override
  public void admit(boolean[] touched, List<LogOp> ops) {
    GroupMember m = tree.member();
    long bytes = 0;
    if (m.paces()) {
      for (LogOp op : ops) {
        bytes += op.key().length + (op.value() == null ? 0 : op.value().length);
      }
    }
    m.admitOwnMemory(bytes);
  }

  @Override
  public LogOp logged(int treeNumber, byte[] key, byte[] value) {
    return new LogOp(key, value);
  }

  @Override
  public Map<StallCause, StallTotals> memoryStalls(long now) {
    return Map.of();
  }

  @Override
  public void closed(long now) {
    // The tree counts a store's stalls and ends them as it closes.
  }

  @Override
  public String describe(Path dir) {
    return "store " + dir;
  }

  /**
   * Replays the store's log above {@code manifest}'s flushed sequence number into {@code t}'s
   * active memory component and opens it for appends ({@link #replayLog}); {@code t}
   * becomes the group's tree.
   */
  void recoverLog(LsmTree t, Manifest manifest, CreatedPaths created, Path savedConfig)
      throws IOException {
    tree = t;
    group.add(t);
    Path[] stale = new Path[1];
    group.logOwner().opened(replayLog(t.directory(), config, env.fileIo(), manifest,
        t.member().active(), LOG, stale, created, savedConfig));
    staleLogDir = stale[0];
    t.countLogBytes(group.logOwner().wal()::appendedBytes);
  }

  /** Once the open has succeeded: records the log in the manifest and starts the tree. */
  void start() {
    GroupRecovery.startTrees(group.trees(), group.logOwner().wal(), tree.directory(), false,
        staleLogDir, env.fileIo());
  }

  /** After a refused open abandoned the tree: stops the flush thread and closes the log. */
  void release() {
    group.releaseLog();
  }

  /** The store's group. */
  TreeGroup group() {
    return group;
  }

  /**
   * Opens the write-ahead log of a standalone index where {@link LogLocation} finds it and replays
   * what is above the manifest's flushed sequence number into {@code active}.
   */
  private static WriteAheadLog replayLog(Path dir, StoreConfig config, FileIo io, Manifest m,
      MemoryComponent active, Logger log, Path[] stale, CreatedPaths created, Path savedConfig)
      throws IOException {
    long flushedLsn = m.flushedLsn();
    LogLocation.Located where = LogLocation.locate(dir, LogLocation.configured(dir, config),
        m.logId(), m.logDir(), flushedLsn, config.log().recoveryMode(), io, savedConfig);
    stale[0] = where.stale();
    WriteAheadLog.Replayed replayed = WriteAheadLog.replay(where.dir(),
        config.log().durability(), config.log().groupCommitIntervalMs(), io,
        config.log().recoveryMode(), flushedLsn, flushedLsn, where.owner(),
        (lsn, op) -> active.put(op.key(), op.value(), lsn));
    // From here the log changes its files (a new segment its catalogue lists): a later failure of
    // this open must not remove them, if the log or the store existed before (the store's
    // manifest then records the log). A new store's failed open removes its new log with it.
    if (Files.exists(where.dir().resolve(org.strata.lsm.wal.LogCatalog.FILE))
        || Files.exists(dir.resolve(Manifest.FILE))) {
      created.keep(where.dir());
    }
    WriteAheadLog wal = replayed.open();
    if (!active.isEmpty()) {
      log.info("recovered {} keys from the write-ahead log of {}", active.entryCount(), dir);
    }
    return wal;
  }
}
