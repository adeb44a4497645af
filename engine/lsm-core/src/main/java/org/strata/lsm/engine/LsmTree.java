package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.Durability;
import org.strata.lsm.Limits;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StoreStats;
import org.strata.lsm.StrataException;
import org.strata.lsm.wal.WriteBatch;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.io.IoBudgetCounters;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.metrics.CompactionStatsTable;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.wal.LogOp;

/**
 * The engine behind {@link LsmStore}: one LSM B+-tree index in a directory. This class is the
 * facade (open, the public API, close); the work is done by, in the order a write meets them:
 * {@link WriteAdmission} (whether a write waits, and why), {@link MemoryComponents} (active and
 * sealed memory components), {@link Flusher} on a {@link FlushExecutor}, {@link VersionSet}
 * (current version, manifest), {@link MergeCoordinator} (policy, scheduler, {@link
 * MergeOperation}), {@link ReadPath}, {@link EngineStats}, {@link ComponentFiles} and, at open,
 * {@link Recovery}.
 *
 * <p>Locks, in the order they are taken: {@code policyLock} ({@link MergeCoordinator}), {@code
 * manifestLock} ({@link VersionSet}), {@code lock} (declared here: the tree lock, which guards
 * the version set's counters and run list, the merge bookkeeping, flush state, statistics and
 * stalls; its condition {@code changed} is signalled on every change a writer or waiter may wait
 * for), then the switch lock of {@link MemoryComponents}; the queue lock of the {@link
 * FlushExecutor} is innermost. Writers log and insert under the shared side of the switch lock
 * only. A dataset partition's {@link TreeGroup} locks come before all of them. {@code closing} is
 * volatile: it is read without the lock.
 *
 * <p>Directory layout: docs/format.md, "Store directory". {@link TreeHistory} appends to {@code
 * HISTORY} under {@code manifestLock}, its own monitor innermost.
 *
 * <p>The log is a {@link TreeLog} chosen at open: a store keeps its own ({@link OwnLog}); a tree
 * of a dataset partition writes through its {@link TreeGroup} ({@link PartitionLog}), which logs
 * every write once for all its trees, seals their active memory components together (so
 * component boundaries are log sequence boundaries in every tree), lends its I/O throttle and
 * flushes them on its executor. Such a tree refuses direct writes.
 */
public final class LsmTree implements LsmStore {
  private static final Logger LOG = LogManager.getLogger(LsmTree.class);
  static final String CONFIG_FILE = "config.json";

  private final Path dir;
  private final StoreConfig config;
  private final StoreEnvironment env;
  private final Clock clock;
  private final DirectoryLock dirLock;
  private final PageCache cache;
  private final IoThrottle throttle;
  /** The log the tree's writes go to: its own, or its dataset partition's ({@link TreeLog}). */
  private final TreeLog log;
  private final FlushExecutor executor;

  /** The tree lock; see the class comment for the lock order. */
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private volatile boolean closing;

  private final EngineStats stats;
  private final StatsDump statsDump;
  private final OperationCounter operations = new OperationCounter();
  private final VersionSet versions;
  private final MemoryComponents memory;
  private final ComponentFiles files;
  private final Flusher flusher;
  private final MergeCoordinator merges;
  private final ReadPath reads;
  private final WriteGate gate;
  private final GroupMember member;
  /** Files a crash left, noted by {@link #recover()} and deleted by {@link #start()}. */
  private final List<Path> leftovers = new ArrayList<>();

  LsmTree(Path dir, StoreConfig config, StoreEnvironment env, DirectoryLock dirLock,
      MergePolicy policy, MergeScheduler scheduler, TreeLog.Factory logs) {
    this.dir = dir;
    this.config = config;
    this.env = env;
    this.clock = env.clock();
    this.dirLock = dirLock;
    TreeHistory history = new TreeHistory(dir, env.fileIo(), clock, LOG);
    this.stats = new EngineStats(nameOf(dir), history::stalled);
    this.statsDump = new StatsDump(config.stats().dumpInterval(), env.clock(), table -> LOG.info(
        "compaction stats of {} (cumulative):{}{}", dir, System.lineSeparator(), table),
        () -> CompactionStatsTable.of(stats(), runs()));
    this.log = logs.create(stats);
    this.cache = new PageCache(config.pageCache().size().bytes());
    this.throttle = log.throttle();
    this.executor = log.executor();
    this.versions = new VersionSet(dir, env.fileIo(), lock, stats, env.crashPoints(),
        history);
    MemoryComponentConfig mcc = config.memoryComponent();
    this.memory = new MemoryComponents(versions, changed, mcc.size().bytes(),
        mcc.liveSize() == null ? 0 : mcc.liveSize().bytes(), mcc.count(), log::sealed,
        log.carrier(), log.switchLock());
    this.files = new ComponentFiles(dir, log.clSsTableDir(), env.fileIo(),
        cache, throttle, config.io().forceBytes().bytes(),
        (int) config.io().pageSize().bytes(), FilterRates.of(config.bloomFilter(), policy,
            config.mergePolicy().name(), () -> versions.current().deepestLevel()),
        Plugins.readsKeySketches(config.mergePolicy()), clock);
    this.merges = new MergeCoordinator(nameOf(dir), LOG, lock, changed, versions, files, stats,
        config.mergePolicy().name(), policy, scheduler, config.flowControl().constraint(), clock,
        operations);
    this.flusher = new Flusher(dir, LOG, lock, changed, memory, versions, this.executor,
        log.flushWriter(new BTreeFlush(dir, files, versions, merges::flushCutKeys), files,
            versions, LOG), log.hold(), () -> {
          merges.policyAfter("flush");
          statsDump.dumpIfDue();
        }, clock);
    this.reads = new ReadPath(versions, operations);
    WriteAdmission admission = new WriteAdmission(config.flowControl().admission(),
        config.flowControl().slowdownAt());
    this.gate = new WriteGate(dir, lock, changed, clock, admission,
        new IoThrottle(config.flowControl().writeRate().bytes(), clock), memory, flusher, merges,
        versions, stats, this::ensureOpen);
    this.member = new GroupMember(lock, memory, versions, flusher, gate, operations,
        this::ensureOpen);
  }

  /** The manifest's record of this tree's log: its id (or null) and directory (or null). */
  java.util.UUID recordedLogId() {
    return versions.logId();
  }

  /** See {@link #recordedLogId()}. */
  String recordedLogDir() {
    return versions.logDir();
  }

  /** See {@link LsmStore#open(Path, StoreConfig, StoreEnvironment)}. */
  public static LsmTree open(Path dir, StoreConfig requested, StoreEnvironment env) {
    return Recovery.open(dir, requested, env);
  }

  /**
   * Recovers the components and (a store) its own log; see {@link Recovery}. Writes nothing: the
   * files a crash left are only noted, and {@link #start()} deletes them, once the log (a
   * member's: its group's shared log) has replayed, so that an open refused for a corrupt log
   * leaves the directory as it found it.
   */
  void recover(org.strata.lsm.io.CreatedPaths created, Path savedConfig) throws IOException {
    MemoryComponent active = memory.start();
    Manifest m = Recovery.recoverComponents(dir, files, versions, active, LOG, leftovers);
    log.recover(dir, m, memory, LOG, created, savedConfig);
    lock.lock();
    try {
      stats.logBytesSinceOpen(log.appendedBytes());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Once the whole open has succeeded (a member: once its group's log has replayed into every
   * tree of the group): deletes the leftovers {@link #recover()} noted, then starts flushing and
   * lets the policy see the recovered components. No flush or merge runs before, so none can
   * write a manifest that a refused open would leave behind.
   */
  void start() throws IOException {
    log.start(this);
    Recovery.deleteLeftovers(leftovers, env.fileIo(), LOG);
    leftovers.clear();
    log.removeStale();
    versions.historyOpened();
    executor.start();
    merges.afterComponentChange(false);
  }

  // ---- writes -----------------------------------------------------------------------------

  @Override
  public void put(byte[] key, byte[] value) {
    log.checkDirectWrites();
    Limits.checkKey(key);
    Limits.checkValue(value);
    apply(List.of(new LogOp(key, value)));
  }

  @Override
  public void delete(byte[] key) {
    log.checkDirectWrites();
    Limits.checkKey(key);
    apply(List.of(new LogOp(key, null)));
  }

  @Override
  public void write(WriteBatch batch) {
    log.checkDirectWrites();
    if (!batch.isEmpty()) {
      apply(batch.ops());
    }
  }

  private void apply(List<LogOp> ops) {
    long bytes = 0;
    if (gate.paces()) {
      for (LogOp op : ops) {
        bytes += op.key().length + (op.value() == null ? 0 : op.value().length);
      }
    }
    gate.admit(WriteAdmission.Memory.TREE, bytes);
    log.write(ops, memory, operations);
  }

  private void ensureOpen() {
    if (closing) {
      throw new StrataException("store " + dir + " is closed");
    }
  }

  @Override
  public void sync() {
    ensureOpen();
    if (config.log().durability() == Durability.UNLOGGED) {
      flush(); // nothing is logged: only a flush makes the writes so far durable
    } else {
      log.sync();
    }
  }

  @Override
  public void flush() {
    lock.lock();
    try {
      ensureOpen();
      flushAllLocked();
    } finally {
      lock.unlock();
    }
  }

  /** Waits until the sealed memory components are flushed, sealing none (for tests). */
  void awaitSealedFlushed() {
    lock.lock();
    try {
      ensureOpen();
      flusher.flushSealed();
    } finally {
      lock.unlock();
    }
  }

  private void flushAllLocked() {
    if (!memory.active().isEmpty() && log.sealsItself()) { // a group seals its trees together
      gate.seal();
    }
    flusher.flushSealed();
  }

  @Override
  public void compact() {
    ensureOpen();
    merges.afterComponentChange(true);
    merges.awaitMerges();
  }

  @Override
  public void awaitMerges() {
    merges.awaitMerges();
  }

  // ---- reads and introspection ------------------------------------------------------------

  @Override
  public Optional<byte[]> get(byte[] key) {
    return reads.get(key);
  }

  @Override
  public ScanCursor scan(byte[] from, byte[] to) {
    return reads.scan(from, to);
  }

  @Override
  public List<RunInfo> runs() {
    return merges.runs();
  }

  @Override
  public StoreStats stats() {
    lock.lock();
    try {
      return stats.snapshot(versions.current(), merges.pendingMergeBytes(), cache,
          clock.nanoTime(), flusher.backgroundError());
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<org.strata.lsm.spi.LevelShape> levelShape() {
    return merges.policy().levelShape();
  }

  @Override
  public StoreConfig config() {
    return config;
  }

  @Override
  public Path directory() {
    return dir;
  }

  @Override
  public IoBudgetCounters ioBudgetCounters() {
    return throttle.counters();
  }

  @Override
  public org.strata.lsm.io.DeviceCounters deviceCounters() {
    return org.strata.lsm.io.DeviceFileIo.countersOf(env.fileIo());
  }

  /** The shared I/O throttle, for statistics and tests. */
  public IoThrottle throttle() {
    return throttle;
  }

  /** Number of write-ahead log segment files. */
  public int logSegmentCount() {
    return log.segmentCount();
  }

  /** The name of the tree in {@code dir}: the directory's own name. */
  static String nameOf(Path dir) {
    return dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
  }

  /** The side of this tree its {@link TreeGroup} uses. */
  GroupMember member() {
    return member;
  }

  /**
   * Records in the manifest the log this tree's unflushed writes are in (its id, and its directory
   * in {@link LogLocation#recordedForm} relative to {@code ownerDir}, the store's or partition's),
   * writing the manifest at once if they changed: a new store, a log moved or started afresh, or a
   * store written before logs had ids. From then on an open refuses any other log.
   */
  void recordLog(java.util.UUID logId, Path logDir, Path ownerDir) throws IOException {
    if (versions.log(logId, LogLocation.recordedForm(ownerDir, logDir))) {
      versions.writeManifest(() -> { });
    }
  }

  /** Saves a member's configuration once its group has recovered the shared log. */
  void saveConfig() throws IOException {
    Recovery.writeConfig(dir, config, env.fileIo());
  }

  // ---- close ------------------------------------------------------------------------------

  @Override
  public void close() {
    lock.lock();
    try {
      if (closing) {
        return;
      }
      try {
        flushAllLocked();
      } catch (RuntimeException e) {
        LOG.error("flush at close of {} failed (after {} failed attempts); the write-ahead log"
            + " keeps the data", dir, flusher.failureCount(), e);
      }
      closing = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    merges.close();
    stopFlushes();
    log.close();
    try {
      versions.writeManifest(() -> stats.stallEnded(clock.nanoTime()));
    } catch (IOException e) {
      LOG.error("cannot write the manifest of {} at close", dir, e);
    }
    versions.historyClosed();
    release();
  }

  /**
   * Closes a tree whose open was refused (a member: whose group, or dataset, failed to open):
   * stops its merges and flushes and releases its log, files and lock, but flushes nothing,
   * writes no manifest and deletes no leftover, so a refused open leaves the directory as it was
   * (whatever the log replayed into memory is dropped; the log still has it).
   */
  void abandon() {
    lock.lock();
    try {
      closing = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    merges.close();
    stopFlushes();
    log.close();
    versions.historyAbandoned();
    release();
  }

  /** No flush of this tree starts any more and none runs (a store's log stops its thread). */
  private void stopFlushes() {
    lock.lock();
    try {
      flusher.quiesce();
    } finally {
      lock.unlock();
    }
  }

  private void release() {
    if (versions.current() != null) { // null if recovery failed before the components were open
      versions.current().release();
    }
    try {
      dirLock.close();
    } catch (IOException e) {
      LOG.warn("cannot release the lock of {}: {}", dir, e.toString());
    }
  }

  @Override
  public String toString() {
    return "LsmTree[" + dir + "]";
  }
}
