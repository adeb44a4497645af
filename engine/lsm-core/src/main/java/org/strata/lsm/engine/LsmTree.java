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
import org.strata.lsm.ScanCursor;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StoreStats;
import org.strata.lsm.StrataException;
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

/**
 * One LSM B+-tree index in a directory: its memory components, versions, merges and reads. It
 * belongs to a {@link TreeGroup}, which alone owns the log, the memory budget, admission, sealing
 * and the flush thread and lends the tree what it needs of them ({@link TreeServices}); a store
 * ({@link Store}) is a group of one tree, a dataset partition a group of its indexes. Writes reach
 * the tree only through its group. The work is done by, in the order a write meets them:
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
 * only. The tree lock is lent by the group ({@link TreeServices#lock()}): a store's tree lock is
 * its group's lock; a partition's group lock comes before its trees' locks. {@code closing} is
 * volatile: it is read without the lock.
 *
 * <p>Directory layout: docs/format.md, "Store directory". {@link TreeHistory} appends to {@code
 * HISTORY} under {@code manifestLock}, its own monitor innermost.
 */
public final class LsmTree {
  private static final Logger LOG = LogManager.getLogger(LsmTree.class);
  static final String CONFIG_FILE = "config.json";

  private final Path dir;
  private final StoreConfig config;
  private final StoreEnvironment env;
  private final Clock clock;
  private final DirectoryLock dirLock;
  private final PageCache cache;
  private final IoThrottle throttle;
  private final FlushExecutor executor;

  /** The tree lock (its group's, for a store); see the class comment for the lock order. */
  private final ReentrantLock lock;
  private final Condition changed;
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
      MergePolicy policy, MergeScheduler scheduler, TreeServices.Factory group) {
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
    TreeServices lent = group.create(stats);
    this.lock = lent.lock();
    this.changed = lock.newCondition();
    this.cache = new PageCache(config.pageCache().size().bytes());
    this.throttle = lent.throttle();
    this.executor = lent.executor();
    this.versions = new VersionSet(dir, env.fileIo(), lock, stats, env.crashPoints(),
        history);
    MemoryComponentConfig mcc = config.memoryComponent();
    this.memory = new MemoryComponents(versions, changed, mcc.size().bytes(),
        mcc.liveSize() == null ? 0 : mcc.liveSize().bytes(), mcc.count(), lent.carrier(),
        lent.switchLock());
    this.files = new ComponentFiles(dir, lent.clSsTableDir(), env.fileIo(),
        cache, throttle, config.io().forceBytes().bytes(),
        (int) config.io().pageSize().bytes(), FilterRates.of(config.bloomFilter(), policy,
            config.mergePolicy().name(), () -> versions.current().deepestLevel()),
        Plugins.readsKeySketches(config.mergePolicy()), clock);
    this.merges = new MergeCoordinator(nameOf(dir), LOG, lock, changed, versions, files, stats,
        config.mergePolicy().name(), policy, scheduler, config.flowControl().constraint(), clock,
        operations);
    this.flusher = new Flusher(dir, LOG, lock, changed, memory, versions, this.executor,
        lent.flushWriter().choose(new BTreeFlush(dir, files, versions, merges::flushCutKeys),
            files, versions, LOG), lent.hold(), () -> {
          merges.policyAfter("flush");
          statsDump.dumpIfDue();
        }, clock);
    this.reads = new ReadPath(versions, operations);
    WriteAdmission admission = new WriteAdmission(config.flowControl().admission(),
        config.flowControl().slowdownAt());
    this.gate = new WriteGate(dir, lock, changed, clock, admission,
        new IoThrottle(config.flowControl().writeRate().bytes(), clock), memory, flusher, merges,
        versions, stats, lent.sealer(), this::ensureOpen);
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

  /**
   * Recovers the components; see {@link Recovery}. Writes nothing: the files a crash left are
   * only noted, and {@link #start()} deletes them, once the group's log has replayed, so that an
   * open refused for a corrupt log leaves the directory as it found it.
   *
   * @return the manifest read, whose flushed sequence number the group replays its log above
   */
  Manifest recover() throws IOException {
    MemoryComponent active = memory.start();
    return Recovery.recoverComponents(dir, files, versions, active, LOG, leftovers);
  }

  /** Counts in the statistics the bytes the group's log appended since open (a store's). */
  void countLogBytes(java.util.function.LongSupplier appended) {
    lock.lock();
    try {
      stats.logBytesSinceOpen(appended);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Once the whole open has succeeded (once its group's log has replayed into every tree of the
   * group and the group has recorded it in the manifest): deletes the leftovers {@link
   * #recover()} noted, then starts flushing and lets the policy see the recovered components. No
   * flush or merge runs before, so none can write a manifest that a refused open would leave
   * behind.
   */
  void start() throws IOException {
    Recovery.deleteLeftovers(leftovers, env.fileIo(), LOG);
    leftovers.clear();
    versions.historyOpened();
    executor.start();
    merges.afterComponentChange(false);
  }

  // ---- flushes and merges -----------------------------------------------------------

  private void ensureOpen() {
    if (closing) {
      throw new StrataException("store " + dir + " is closed");
    }
  }

  /**
   * Waits until the sealed memory components are disk components, sealing none: the group seals
   * ({@link TreeGroup#flush()}).
   */
  void flushSealed() {
    lock.lock();
    try {
      ensureOpen();
      flusher.flushSealed();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Requests the flush of the sealed memory components; {@link #awaitFlushed} waits for it. The
   * group requests right after its seal, under its lock, so the flush the seal queued sees it.
   */
  Flusher.Request requestFlush() {
    lock.lock();
    try {
      ensureOpen();
      return flusher.request();
    } finally {
      lock.unlock();
    }
  }

  /** Waits until the flush {@code r} requested is done; see {@link #requestFlush()}. */
  void awaitFlushed(Flusher.Request r) {
    lock.lock();
    try {
      flusher.await(r);
    } finally {
      lock.unlock();
    }
  }

  /** Merges as the policy would at a full merge, and waits for every merge to end. */
  public void compact() {
    ensureOpen();
    merges.afterComponentChange(true);
    merges.awaitMerges();
  }

  /** Waits until no merge is running or scheduled. */
  public void awaitMerges() {
    merges.awaitMerges();
  }

  // ---- reads and introspection ------------------------------------------------------------

  /** The newest value of {@code key}, or empty if it has none or anti-matter. */
  public Optional<byte[]> get(byte[] key) {
    return reads.get(key);
  }

  /** The newest value of each key in {@code [from, to)} (null: unbounded), in key order. */
  public ScanCursor scan(byte[] from, byte[] to) {
    return reads.scan(from, to);
  }

  /** The disk components' runs, newest first. */
  public List<RunInfo> runs() {
    return merges.runs();
  }

  /** A snapshot of the tree's statistics. */
  public StoreStats stats() {
    lock.lock();
    try {
      return stats.snapshot(versions.current(), merges.pendingMergeBytes(), cache,
          clock.nanoTime(), flusher.backgroundError());
    } finally {
      lock.unlock();
    }
  }

  /** The merge policy's level shape, where it has one. */
  public Optional<org.strata.lsm.spi.LevelShape> levelShape() {
    return merges.policy().levelShape();
  }

  /** The tree's configuration. */
  public StoreConfig config() {
    return config;
  }

  /** The tree's directory. */
  public Path directory() {
    return dir;
  }

  /** What the tree's I/O throttle granted and made wait. */
  public IoBudgetCounters ioBudgetCounters() {
    return throttle.counters();
  }

  /** The device model's counters, if the tree's files are on one. */
  public org.strata.lsm.io.DeviceCounters deviceCounters() {
    return org.strata.lsm.io.DeviceFileIo.countersOf(env.fileIo());
  }

  /** The shared I/O throttle, for statistics and tests. */
  public IoThrottle throttle() {
    return throttle;
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

  /** Saves the tree's configuration once its group has recovered the log. */
  void saveConfig() throws IOException {
    Recovery.writeConfig(dir, config, env.fileIo());
  }

  // ---- close ------------------------------------------------------------------------------

  /**
   * Flushes the sealed memory components (its group sealed the active one first), stops merges
   * and flushes, writes the manifest and releases the files and the lock. Called by the group.
   */
  void close() {
    lock.lock();
    try {
      if (closing) {
        return;
      }
      try {
        flusher.flushSealed();
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
    try {
      versions.writeManifest(() -> stats.stallEnded(clock.nanoTime()));
    } catch (IOException e) {
      LOG.error("cannot write the manifest of {} at close", dir, e);
    }
    versions.historyClosed();
    release();
  }

  /**
   * Closes a tree whose open was refused (whose group, or dataset, failed to open): stops its
   * merges and flushes and releases its files and lock, but flushes nothing,
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
    versions.historyAbandoned();
    release();
  }

  /** No flush of this tree starts any more and none runs (its group stops the thread). */
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
