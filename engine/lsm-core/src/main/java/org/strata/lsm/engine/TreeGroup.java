package org.strata.lsm.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.function.Function;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.Durability;
import org.strata.lsm.StallCause;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StoreStats.StallTotals;
import org.strata.lsm.StrataException;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.io.CrashPoints;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.wal.LogOp;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * LSM trees that share one write-ahead log, one memory budget, one flush thread and one I/O
 * throttle, which the group alone owns: it admits, logs, seals and closes for its trees, which keep
 * their memory components, versions, merges and reads ({@link TreeServices}). A store is a group
 * of one tree ({@link StoreForm}, behind {@link Store}), as RocksDB's database always has its
 * default column family; a dataset partition is a group of its primary and secondary indexes
 * ({@link PartitionForm}), as AsterixDB's indexes of a dataset share a log and a budget.
 *
 * <p>Log. A write is one log record (a partition's operations carry their tree's number, {@link
 * TreeTag}). Recovery replays into each tree only the operations above its flushed sequence
 * number, so a crash can never apply a write to one index and not another.
 *
 * <p>Memory. The active memory components of all trees are sealed together when the budget is
 * used up, under an exclusive switch lock that writers take shared, so in every tree a memory
 * component holds exactly the writes logged between two seals. The trees then flush, in turn, on
 * the group's one {@link FlushExecutor}. Whether a write waits, and why, is {@link
 * WriteAdmission}'s decision ({@link GroupForm#admit}).
 *
 * <p>Locks. {@code lock} (the group's; a store's tree lock too) comes before any tree's lock;
 * writers take the switch lock of the group's {@link LogOwner} shared, seals take it exclusively
 * under {@code lock}. Seals, flushes that end and close signal {@code changed}. Recovery is
 * {@link GroupRecovery}'s (a store's, {@link Recovery}'s).
 */
public final class TreeGroup implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(TreeGroup.class);
  /** Trees per group: the tree number is one byte of the log key. */
  public static final int MAX_TREES = 255;

  /** One tree of the group: its directory name under the group's and its configuration. */
  public record Member(String name, StoreConfig config) {}

  /** One operation of a write: {@code value} null writes anti-matter. */
  public record Op(int tree, byte[] key, byte[] value) {}

  private final Path dir;
  private final GroupForm form;
  private final Durability durability;
  private final IoThrottle throttle;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final List<LsmTree> trees = new ArrayList<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final FlushExecutor executor;
  /** What recovery found of a partition's shared log; {@link #start()} opens it. */
  private GroupRecovery.Log recovered;
  /** The log (once started), the switch lock the trees share and the write sequence. */
  private final LogOwner log;
  private volatile boolean closing;

  /** @param form makes the group's form once the group's own parts exist */
  TreeGroup(Path dir, Durability durability, IoThrottle throttle, Clock clock,
      CrashPoints crashPoints, Function<TreeGroup, GroupForm> form) {
    this.crashPoints = crashPoints;
    this.dir = dir;
    this.durability = durability;
    this.throttle = throttle;
    this.clock = clock;
    this.log = new LogOwner(crashPoints);
    this.executor = new FlushExecutor(LsmTree.nameOf(dir));
    this.form = form.apply(this);
  }

  /** A dataset partition's group, its trees to open into it ({@link GroupRecovery}). */
  static TreeGroup partition(Path dir, long memoryBudget, StoreConfig logSettings,
      IoThrottle throttle, StoreEnvironment env) {
    return new TreeGroup(dir, logSettings.log().durability(), throttle, env.clock(),
        env.crashPoints(), g -> new PartitionForm(g, g.trees, memoryBudget, g.clock, dir,
            new GroupLogHold(g.log::wal, g.trees, g.crashPoints, g::flushEnded)));
  }

  /**
   * Opens (or creates) the trees in {@code dir/<member name>} and the shared log in {@code dir/wal}
   * (or {@code log.dir} of {@code logSettings}), replaying what the trees have not flushed: {@link
   * #recover} then {@link #start()}. A refused open leaves every directory as it found it.
   *
   * @param memoryBudget bytes of active memory components, summed over the trees, that trigger a
   *     seal of all of them
   * @param logSettings durability, log directory and group-commit interval
   * @param throttle the I/O budget shared by the trees' flushes and merges
   */
  public static TreeGroup open(Path dir, List<Member> members, long memoryBudget,
      StoreConfig logSettings, IoThrottle throttle, StoreEnvironment env) {
    return GroupRecovery.open(dir, members, memoryBudget, logSettings, throttle, env);
  }

  /**
   * The first half of {@link #open}: opens the trees and replays the log into them, writing
   * nothing ({@link GroupRecovery}); {@link #start()} finishes once every tree (a dataset: every
   * partition) has recovered. A refusal releases what was opened and leaves every file as it was.
   *
   * @param savedConfig the configuration file {@code logSettings} was read from (null: given),
   *     refused as damaged if it names another log directory than the indexes recorded
   */
  public static TreeGroup recover(Path dir, List<Member> members, long memoryBudget,
      StoreConfig logSettings, IoThrottle throttle, StoreEnvironment env, Path savedConfig) {
    return GroupRecovery.recoverGroup(dir, members, memoryBudget, logSettings, throttle, env,
        savedConfig);
  }

  /** Takes what recovery found of a partition's shared log; {@link #start()} opens it. */
  void recovered(GroupRecovery.Log found) {
    recovered = found;
  }

  /** Takes {@code t}, opened with what its form lent ({@link GroupForm#services}), as a tree. */
  void add(LsmTree t) {
    trees.add(t);
  }

  /** See {@link GroupForm#services}. */
  TreeServices services(Path treeDir, StoreConfig config, EngineStats stats) {
    return form.services(treeDir, config, stats);
  }

  /**
   * The second half of {@link #open}, once the log has replayed into every tree: opens it for
   * appends and starts the trees ({@link GroupRecovery#startTrees}). On a failure the caller
   * abandons the group.
   */
  public void start() {
    lock.lock();
    try {
      if (closing || recovered == null || log.wal() != null) {
        throw new IllegalStateException("start() is for a group recover() returned, once: " + this
            + (closing ? " is closed" : " has started already"));
      }
    } finally {
      lock.unlock();
    }
    log.opened(recovered.replayed().open());
    GroupRecovery.startTrees(trees, log.wal(), dir, true, recovered.stale(), recovered.fileIo());
  }

  /**
   * Closes a group whose open failed (or a dataset's, whose next partition was refused), without
   * a flush, a manifest or a deleted leftover: the log keeps what it replayed. Idempotent.
   */
  public void abandon() {
    abandon(null);
  }

  void abandon(RuntimeException cause) {
    lock.lock();
    try {
      if (closing) {
        return; // closed or abandoned already
      }
      closing = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    for (LsmTree t : trees) {
      try {
        t.abandon();
      } catch (RuntimeException e) {
        if (cause == null) {
          throw e;
        }
        cause.addSuppressed(e);
      }
    }
    stopFlushesAndLog();
  }

  /**
   * Stops the flush thread and closes the log, once the trees are closed or abandoned (a store's
   * refused open abandons its tree itself, then calls this).
   */
  void releaseLog() {
    lock.lock();
    try {
      closing = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    stopFlushesAndLog();
  }

  /** Stops the flush thread and closes the log; the trees are closed or abandoned. */
  private void stopFlushesAndLog() {
    executor.stop();
    log.close();
  }

  /**
   * Whether the group's log, or an index's manifest, existed before this open: then the log's
   * files must stay even if the open fails after the log was opened (a manifest records it).
   */
  public boolean logPredatesOpen() {
    return recovered != null && recovered.predatesOpen();
  }

  /** The directory of the group's log (as recovery located it). */
  public Path logDirectory() {
    WriteAheadLog wal = log.wal();
    return wal != null ? wal.directory() : recovered == null ? null : recovered.dir();
  }

  /** The trees, in member order (a store's: its one tree). */
  public List<LsmTree> trees() {
    return List.copyOf(trees);
  }

  /** Tree number {@code i}. */
  public LsmTree tree(int i) {
    return trees.get(i);
  }

  /** The I/O throttle the trees share. */
  public IoThrottle throttle() {
    return throttle;
  }

  /**
   * Applies {@code ops} as one log record: waits out stalls, logs, inserts into the trees, and
   * makes the record durable as {@code log.durability} says. Operations on one tree apply in order.
   */
  public void write(List<Op> ops) {
    if (ops.isEmpty()) {
      return;
    }
    boolean[] touched = new boolean[trees.size()];
    apply(form.logged(ops, touched), touched, (i, lsn) -> {
      Op op = ops.get(i);
      if (i == 1 && ops.get(0).tree() == 0) {
        crashPoints.reached(CrashPoint.DATASET_BETWEEN_INDEXES);
      }
      trees.get(op.tree()).member().write(op.key(), op.value(), lsn);
    });
  }

  /** Applies {@code ops}, checked, to the group's only tree (a store's); see {@link #write}. */
  void writeOnlyTree(List<LogOp> ops) {
    GroupMember m = trees.get(0).member();
    apply(ops, ONLY_TREE, (i, lsn) -> {
      LogOp op = ops.get(i);
      m.write(op.key(), op.value(), lsn);
    });
  }

  /** {@code touched} of a write to a group's only tree. Never written. */
  private static final boolean[] ONLY_TREE = {true};

  /** The write sequence: admission ({@link GroupForm#admit}), then {@link LogOwner#write}. */
  private void apply(List<LogOp> logged, boolean[] touched, LogOwner.Inserter inserter) {
    form.admit(touched, logged);
    log.write(logged, inserter);
  }

  /**
   * Rolls the log and seals every non-empty active component. Caller holds {@code lock}.
   *
   * <p>The roll comes first: a tree's flush writes the log up to the roll's boundary ({@link
   * WriteAheadLog#completeRolls()}) before the component. Rolled after the seals, a flush that
   * started before the roll wrote a component whose last operations were only in the log's
   * buffer; a kill then lost them from the log, and the other trees, which replay them from the
   * log, disagreed with the flushed one.
   *
   * @param full whether the memory budget is used up (TRIAD-MEM may carry hot keys)
   */
  void sealAll(boolean full) {
    assert lock.isHeldByCurrentThread() : "caller holds the group's lock";
    log.switchLock().lockExclusive();
    try {
      log.roll(); // the log starts no new segment if nothing was appended since the last roll
      for (LsmTree t : trees) {
        t.member().seal(full);
      }
    } finally {
      log.switchLock().unlockExclusive();
    }
  }

  /** Throws unless the group is open and started. */
  void ensureOpen() {
    if (closing) {
      throw new StrataException(form.describe(dir) + " is closed");
    }
    ensureStarted();
  }

  private void ensureStarted() {
    if (log.wal() == null) {
      throw new IllegalStateException(form.describe(dir) + " is recovered but not"
          + " started; call start() first");
    }
  }

  /** The group's log and switch lock. */
  LogOwner logOwner() {
    return log;
  }

  /** The group's lock (a store's tree lock too), for its form. */
  ReentrantLock lock() {
    return lock;
  }

  /** The group's condition, signalled by seals, flushes that end and close. */
  Condition changed() {
    return changed;
  }

  /** The group's flush thread. */
  FlushExecutor executor() {
    return executor;
  }

  /** Wakes the group's writers (a member's flush ended, durable or failed). */
  private void flushEnded() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Seals every tree's active memory component and waits until all are disk components, requested
   * under the seal's lock (a store's tree lock), so a failed flush is retried once, here, only.
   */
  public void flush() {
    List<Flusher.Request> requests = new ArrayList<>(trees.size());
    lock.lock();
    try {
      ensureOpen();
      sealAll(false);
      for (LsmTree t : trees) {
        requests.add(t.requestFlush());
      }
    } finally {
      lock.unlock();
    }
    for (int i = 0; i < trees.size(); i++) {
      trees.get(i).awaitFlushed(requests.get(i));
    }
  }

  /**
   * Forces the log: every write that returned before is durable after. Under {@code unlogged} (a
   * store's only) nothing is logged, so it flushes instead.
   */
  public void sync() {
    if (durability == Durability.UNLOGGED) {
      flush();
      return;
    }
    ensureOpen();
    log.sync();
  }

  /** Log segment files, for tests and statistics. */
  public int logSegmentCount() {
    return log.segmentCount();
  }

  /** Memory-full stalls of this group (constraint stalls, and a store's, by each tree). */
  public Map<StallCause, StallTotals> memoryStalls() {
    lock.lock();
    try {
      return form.memoryStalls(clock.nanoTime());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Seals and flushes the memory components, closes every tree, then the log. A group that was
   * recovered but never started is abandoned instead: it writes nothing.
   */
  @Override
  public void close() {
    if (log.wal() == null) {
      abandon();
      return;
    }
    lock.lock();
    try {
      if (closing) {
        return;
      }
      try {
        sealAll(false);
      } catch (RuntimeException e) {
        LOG.error("sealing {} at close failed; the log keeps the data", dir, e);
      }
      closing = true;
      form.closed(clock.nanoTime());
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    RuntimeException first = null;
    for (LsmTree t : trees) {
      try {
        t.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    stopFlushesAndLog();
    if (first != null) {
      throw first;
    }
  }

  @Override
  public String toString() {
    return "TreeGroup[" + dir + ", " + trees.size() + " trees]";
  }
}
