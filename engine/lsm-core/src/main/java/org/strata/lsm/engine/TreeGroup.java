package org.strata.lsm.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.Limits;
import org.strata.lsm.StallCause;
import org.strata.lsm.StorageException;
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
 * The LSM trees of one dataset partition (a primary index and its secondary indexes), which share
 * one write-ahead log, one memory budget and one I/O throttle, as AsterixDB's indexes of a dataset
 * do.
 *
 * <p>Log. A write that touches several trees is one log record: its operations carry the number of
 * their tree ({@link TreeTag}). Recovery replays into each tree only the operations above that
 * tree's flushed sequence number, so a crash can never apply a write to one index and not another.
 *
 * <p>Memory. The active memory components of all trees are sealed together when their sum reaches
 * the budget ({@code memory-component.size}), under an exclusive switch lock that writers take
 * shared, so in every tree a memory component holds exactly the writes logged between two seals.
 * The trees then flush, in turn, on the group's one {@link FlushExecutor} (its class comment says
 * why one per group); writers stall ({@code memory-full}) while some tree still holds {@code
 * memory-component.count} memory components. A tree whose merges lag stalls the writes that touch
 * it ({@code constraint}, counted by that tree). Whether a write waits, and why, is {@link
 * WriteAdmission}'s decision, for the group's memory budget as for each tree's constraint. A tree
 * whose background flush failed fails every write of the group until a flush succeeds.
 *
 * <p>Locks. {@code lock} (the group's) comes before any tree's lock; the switch lock of the
 * group's {@link LogOwner} is taken shared by writers and exclusively to seal all trees, under
 * {@code lock}. Waits on {@code changed} are signalled by seals, by every member flush that ends
 * (durable or failed) and by close.
 *
 * <p>Recovery is {@link GroupRecovery}'s; log truncation after each flush is {@link
 * GroupLogHold}'s; the memory budget is kept by {@link GroupMemoryGate}.
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
  private final IoThrottle throttle;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final List<LsmTree> trees = new ArrayList<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final StallTracker stalls;
  private final GroupMemoryGate memoryGate;
  private final FlushExecutor executor;
  private final LogHold logHold;
  /** What recovery found of the shared log; {@link #start()} opens it. */
  private GroupRecovery.Log recovered;
  /**
   * The shared log (once started) with the switch lock every tree's memory components share, and
   * the write sequence a store's own log runs too.
   */
  private final LogOwner log;
  private volatile boolean closing;

  private TreeGroup(Path dir, long memoryBudget, IoThrottle throttle, Clock clock,
      CrashPoints crashPoints) {
    this.crashPoints = crashPoints;
    this.dir = dir;
    this.throttle = throttle;
    this.clock = clock;
    this.log = new LogOwner(crashPoints);
    String name = dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
    this.executor = new FlushExecutor(name);
    this.stalls = new StallTracker(name, (cause, nanos) -> trees.forEach(
        t -> t.member().stallEnded(cause, nanos)));
    this.memoryGate = new GroupMemoryGate(lock, changed, clock, stalls, memoryBudget, trees,
        this::ensureOpen, this::sealAll);
    this.logHold = new GroupLogHold(log::wal, trees, crashPoints, this::flushEnded);
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
    TreeGroup g = recover(dir, members, memoryBudget, logSettings, throttle, env);
    try {
      g.start();
    } catch (RuntimeException e) {
      g.abandon(e);
      throw e;
    }
    return g;
  }

  /**
   * The first half of {@link #open}: opens the trees and replays the shared log into them, writing
   * nothing ({@link GroupRecovery}). {@link #start()} finishes the open once every tree (a
   * dataset: every partition) has recovered; until then the group takes no writes. A refusal
   * releases whatever was opened and leaves every file as it was.
   */
  public static TreeGroup recover(Path dir, List<Member> members, long memoryBudget,
      StoreConfig logSettings, IoThrottle throttle, StoreEnvironment env) {
    return recover(dir, members, memoryBudget, logSettings, throttle, env, null);
  }

  /**
   * As {@link #recover(Path, List, long, StoreConfig, IoThrottle, StoreEnvironment)}, with {@code
   * savedConfig} the saved configuration file {@code logSettings} was read from (null when the
   * opener gave the configuration): a saved configuration that names another log directory than
   * the one the indexes recorded is refused as damaged ({@link LogLocation}).
   */
  public static TreeGroup recover(Path dir, List<Member> members, long memoryBudget,
      StoreConfig logSettings, IoThrottle throttle, StoreEnvironment env, Path savedConfig) {
    if (members.isEmpty() || members.size() > MAX_TREES) {
      throw new IllegalArgumentException("a tree group has 1 to " + MAX_TREES + " trees, not "
          + members.size());
    }
    logSettings.log().checkShareable();
    TreeGroup g = new TreeGroup(dir, memoryBudget, throttle, env.clock(), env.crashPoints());
    try {
      g.recovered = GroupRecovery.recover(g, dir, members, logSettings, env, savedConfig);
      return g;
    } catch (RuntimeException e) {
      // A refused open writes nothing: the trees are dropped without a flush or a manifest.
      g.abandon(e);
      throw e;
    }
  }

  /** Opens one member's tree in the group (recovered, not started); see {@link GroupRecovery}. */
  LsmTree openTree(Path treeDir, StoreConfig config, StoreEnvironment env) {
    LsmTree t = Recovery.openMember(treeDir, config, env, this);
    trees.add(t);
    return t;
  }

  /**
   * The second half of {@link #open}, once the log has replayed into every tree: finishes the
   * log's recovery on disk and opens it for appends, saves each tree's configuration, deletes the
   * files a crash left in the trees' directories and starts their flushes and merges. On a failure
   * the caller abandons the group.
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
    WriteAheadLog wal = log.wal();
    for (LsmTree t : trees) {
      try {
        t.recordLog(wal.logId(), wal.directory(), dir);
        t.saveConfig();
      } catch (java.io.IOException e) {
        throw new StorageException("cannot save the configuration of " + t.directory() + ": "
            + e, e);
      }
    }
    if (recovered.stale() != null) {
      LogLocation.removeStale(recovered.stale(), recovered.fileIo());
    }
    for (LsmTree t : trees) {
      try {
        t.start();
      } catch (java.io.IOException e) {
        throw new StorageException("cannot start " + t.directory() + ": " + e, e);
      }
    }
  }

  /**
   * Closes a group whose caller failed to open (a dataset whose next partition was refused):
   * releases the trees and the log without flushing, writing a manifest or deleting a leftover.
   * What was replayed from the log stays in the log. Does nothing on a closed group.
   */
  public void abandon() {
    abandon(null);
  }

  private void abandon(RuntimeException cause) {
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

  /** The trees, in member order. */
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
    List<LogOp> logged = new ArrayList<>(ops.size());
    boolean[] touched = new boolean[trees.size()];
    for (Op op : ops) {
      if (op.tree() < 0 || op.tree() >= trees.size()) {
        throw new IllegalArgumentException("tree " + op.tree() + " is not in this group of "
            + trees.size());
      }
      Limits.checkKey(op.key());
      if (op.value() != null) {
        Limits.checkValue(op.value());
      }
      touched[op.tree()] = true;
      logged.add(TreeTag.tagged(op.tree(), op.key(), op.value()));
    }
    for (int i = 0; i < touched.length; i++) {
      if (touched[i]) {
        trees.get(i).member().awaitConstraint();
      }
    }
    memoryGate.admit();
    log.write(logged, (i, lsn) -> {
      Op op = ops.get(i);
      if (i == 1 && ops.get(0).tree() == 0) {
        crashPoints.reached(CrashPoint.DATASET_BETWEEN_INDEXES);
      }
      trees.get(op.tree()).member().write(op.key(), op.value(), lsn);
    });
  }

  /**
   * Rolls the log and seals every non-empty active component. Caller holds {@code lock}.
   *
   * <p>The roll comes first: a sealed component is visible to its tree's flush thread as soon as
   * it is sealed, and that flush writes the log up to the roll's boundary ({@link
   * WriteAheadLog#completeRolls()}) before it writes the component. Rolled after the seals, a
   * flush that started before the roll found none pending and wrote a component whose last
   * operations were still only in the log's buffer; a kill then lost them from the log, and the
   * other trees, which replay them from the log, disagreed with the flushed one (an index without
   * the entries of a record the primary holds).
   */
  private void sealAll() {
    log.switchLock().lockExclusive();
    try {
      log.roll();
      for (LsmTree t : trees) {
        t.member().seal();
      }
    } finally {
      log.switchLock().unlockExclusive();
    }
  }

  private void ensureOpen() {
    if (closing) {
      throw new StrataException("dataset partition " + dir + " is closed");
    }
    ensureStarted();
  }

  private void ensureStarted() {
    if (log.wal() == null) {
      throw new IllegalStateException("dataset partition " + dir + " is recovered but not"
          + " started; call start() first");
    }
  }

  /**
   * The log of a member's tree in {@code treeDir} ({@link PartitionLog}): the group's shared log,
   * held and truncated for the member's flushes by {@link GroupLogHold}, its switch lock and its
   * I/O throttle.
   */
  TreeLog memberLog(Path treeDir, StoreConfig config) {
    return new PartitionLog(treeDir, config, throttle, logHold, log.switchLock(), executor,
        this::sync, this::logSegmentCount);
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

  /** Seals every tree's active memory component and waits until all are disk components. */
  public void flush() {
    lock.lock();
    try {
      ensureOpen();
      sealAll();
    } finally {
      lock.unlock();
    }
    for (LsmTree t : trees) {
      t.flush();
    }
  }

  /** Forces the log: every write that returned before is durable after. */
  public void sync() {
    ensureStarted();
    log.sync();
  }

  /** Log segment files, for tests and statistics. */
  public int logSegmentCount() {
    return log.segmentCount();
  }

  /** Memory-full stalls of this group (constraint stalls are counted by each tree). */
  public Map<StallCause, StallTotals> memoryStalls() {
    lock.lock();
    try {
      return stalls.totals(clock.nanoTime());
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
        sealAll();
      } catch (RuntimeException e) {
        LOG.error("sealing {} at close failed; the log keeps the data", dir, e);
      }
      closing = true;
      stalls.end(clock.nanoTime());
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
    executor.stop();
    log.close();
    if (first != null) {
      throw first;
    }
  }

  @Override
  public String toString() {
    return "TreeGroup[" + dir + ", " + trees.size() + " trees]";
  }
}
