package org.strata.lsm.engine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Limits;
import org.strata.lsm.StallCause;
import org.strata.lsm.StorageException;
import org.strata.lsm.StoreEnvironment;
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
 * their tree in the first key byte. Recovery replays into each tree only the operations above that
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
 * <p>Locks. {@code lock} (the group's) comes before any tree's lock; the group's {@code
 * switchLock} is taken shared by writers and exclusively to seal all trees, under {@code lock}.
 * Waits on {@code changed} are signalled by seals, by every member flush that ends (durable or
 * failed) and by close.
 *
 * <p>Log truncation. After each flush the log drops the segments every tree is done with: those
 * below the lowest sequence number still in any tree's unflushed (or not yet durably listed)
 * memory components.
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
  private final long memoryBudget;
  private final StoreConfig logSettings;
  private final IoThrottle throttle;
  private final Clock clock;
  private final CrashPoints crashPoints;
  private final List<LsmTree> trees = new ArrayList<>();
  private final ReentrantReadWriteLock switchLock = new ReentrantReadWriteLock();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final StallTracker stalls;
  private final WriteAdmission admission =
      new WriteAdmission(org.strata.lsm.config.FlowControl.Admission.ASAP, 1);
  private final FlushExecutor executor;
  /** The replayed shared log between {@link #recover} and {@link #start()}, else null. */
  private WriteAheadLog.Replayed replayedLog;
  /** The shared log, once started. */
  private WriteAheadLog wal;
  /** The log's directory, as recovery located it. */
  private Path logDir;
  private boolean logPredatesOpen;
  /** An old, fully flushed log to remove once the group has started ({@link LogLocation}). */
  private Path staleLogDir;
  /** How the group's files are written (the log's old directory is removed through it). */
  private org.strata.lsm.io.FileIo fileIo;
  private volatile boolean closing;


  private TreeGroup(Path dir, long memoryBudget, StoreConfig logSettings, IoThrottle throttle,
      Clock clock, CrashPoints crashPoints) {
    this.crashPoints = crashPoints;
    this.dir = dir;
    this.memoryBudget = memoryBudget;
    this.logSettings = logSettings;
    this.throttle = throttle;
    this.clock = clock;
    String name = dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
    this.executor = new FlushExecutor(name);
    this.stalls = new StallTracker(name);
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
   * nothing. The trees note the files a crash left but delete none, and no flush or merge runs;
   * the log is replayed but not changed (no torn tail cut, no new segment). {@link #start()} does
   * all of that once every tree (a dataset: every partition) has recovered; until then the group
   * takes no writes. A refusal releases whatever was opened and leaves every file as it was.
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
    TreeGroup g = new TreeGroup(dir, memoryBudget, logSettings, throttle, env.clock(),
        env.crashPoints());
    try {
      long[] flushed = g.openTrees(dir, members, env);
      long replayFrom = Long.MAX_VALUE;
      long lsnFloor = 0;
      for (long f : flushed) {
        replayFrom = Math.min(replayFrom, f);
        lsnFloor = Math.max(lsnFloor, f);
      }
      LogLocation.Located where = g.locateLog(dir, members, replayFrom, logSettings, env,
          savedConfig);
      g.staleLogDir = where.stale();
      g.fileIo = env.fileIo();
      Path logDir = where.dir();
      g.logDir = logDir;
      g.logPredatesOpen = java.nio.file.Files.exists(logDir.resolve(
          org.strata.lsm.wal.LogCatalog.FILE));
      for (LsmTree t : g.trees) {
        g.logPredatesOpen |= java.nio.file.Files.exists(t.directory().resolve(Manifest.FILE));
      }
      g.replayLog(dir, members, flushed, replayFrom, lsnFloor, where, logSettings, env);
      return g;
    } catch (RuntimeException e) {
      // A refused open writes nothing: the trees are dropped without a flush or a manifest.
      g.abandon(e);
      throw e;
    }
  }

  /** Opens the members' trees in order; returns the flushed sequence number of each. */
  private long[] openTrees(Path dir, List<Member> members, StoreEnvironment env) {
    long[] flushed = new long[members.size()];
    for (int i = 0; i < members.size(); i++) {
      Member m = members.get(i);
      LsmTree t = LsmTree.openMember(dir.resolve(m.name()), m.config(), env, this, executor);
      trees.add(t);
      flushed[i] = t.member().flushedLsn();
    }
    return flushed;
  }

  /** The partition's log: the one its indexes' manifests recorded, where LogLocation finds it. */
  private LogLocation.Located locateLog(Path dir, List<Member> members, long replayFrom,
      StoreConfig logSettings, StoreEnvironment env, Path savedConfig) {
    java.util.UUID recordedId = null;
    String recordedDir = null;
    String recordedBy = null;
    for (int i = 0; i < members.size(); i++) {
      LsmTree t = trees.get(i);
      java.util.UUID id = t.recordedLogId();
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
    } catch (java.io.IOException e) {
      throw new StorageException("cannot open the log of " + dir + ": " + e, e);
    }
  }

  /**
   * Replays the log into the trees (each operation above its tree's flushed sequence number),
   * changing no file; the log is opened by {@link #start()}.
   */
  private void replayLog(Path dir, List<Member> members, long[] flushed, long replayFrom,
      long lsnFloor, LogLocation.Located where, StoreConfig logSettings, StoreEnvironment env) {
    Path logDir = where.dir();
    long[] replayed = new long[members.size()];
    replayedLog = WriteAheadLog.replay(logDir, logSettings.log().durability(),
        logSettings.log().groupCommitIntervalMs(), env.fileIo(), logSettings.log().recoveryMode(),
        replayFrom, lsnFloor, where.owner(),
        (lsn, op) -> {
          int t = op.key()[0] & 0xFF;
          if (t >= flushed.length) {
            throw new CorruptionException(logDir, -1, "log operation " + lsn + " names index "
                + t + " but the partition has " + flushed.length);
          }
          if (lsn > flushed[t]) {
            trees.get(t).member().insert(Arrays.copyOfRange(op.key(), 1, op.key().length),
                op.value(), lsn);
            replayed[t]++;
          }
        });
    for (int i = 0; i < replayed.length; i++) {
      if (replayed[i] > 0) {
        LOG.info("recovered {} operations of {} from the log of {}", replayed[i],
            members.get(i).name(), dir);
      }
    }
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
      if (closing || replayedLog == null) {
        throw new IllegalStateException("start() is for a group recover() returned, once: " + this
            + (closing ? " is closed" : " has started already"));
      }
    } finally {
      lock.unlock();
    }
    wal = replayedLog.open();
    replayedLog = null;
    for (LsmTree t : trees) {
      try {
        t.recordLog(wal.logId(), wal.directory(), dir);
        t.saveConfig();
      } catch (java.io.IOException e) {
        throw new StorageException("cannot save the configuration of " + t.directory() + ": "
            + e, e);
      }
    }
    if (staleLogDir != null) {
      LogLocation.removeStale(staleLogDir, fileIo);
      staleLogDir = null;
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
    if (wal != null) {
      wal.close();
    }
  }

  /**
   * Whether the group's log, or an index's manifest, existed before this open: then the log's
   * files must stay even if the open fails after the log was opened (a manifest records it).
   */
  public boolean logPredatesOpen() {
    return logPredatesOpen;
  }

  /** The directory of the group's log (as recovery located it). */
  public Path logDirectory() {
    return wal != null ? wal.directory() : logDir;
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
      byte[] k = new byte[op.key().length + 1];
      k[0] = (byte) op.tree();
      System.arraycopy(op.key(), 0, k, 1, op.key().length);
      logged.add(new LogOp(k, op.value()));
    }
    for (int i = 0; i < touched.length; i++) {
      if (touched[i]) {
        trees.get(i).member().awaitConstraint();
      }
    }
    admitMemory();
    long lsn;
    switchLock.readLock().lock();
    try {
      lsn = wal.append(logged);
      long first = lsn - ops.size() + 1;
      for (int i = 0; i < ops.size(); i++) {
        Op op = ops.get(i);
        if (i == 1 && ops.get(0).tree() == 0) {
          crashPoints.reached(CrashPoint.DATASET_BETWEEN_INDEXES);
        }
        trees.get(op.tree()).member().write(op.key(), op.value(), first + i);
      }
    } finally {
      switchLock.readLock().unlock();
    }
    switch (logSettings.log().durability()) {
      case SYNC -> wal.sync(lsn);
      case GROUP, NONE -> wal.writeOutIfLarge();
      default -> throw new IllegalStateException();
    }
  }

  /**
   * Carries out {@link WriteAdmission}'s decision on the group's memory budget: seals all trees
   * when the budget is used up and each can take a seal, waits while some cannot (counting a
   * memory-full stall), and fails while a tree's flush has failed.
   */
  private void admitMemory() {
    AdmissionLoop.admit(admission, lock, changed, clock, stalls, new AdmissionLoop.Site() {
      @Override
      public void ensureOpen() {
        TreeGroup.this.ensureOpen();
      }

      @Override
      public WriteAdmission.State state(long unpacedBytes) {
        return memoryState();
      }

      @Override
      public void seal() {
        sealAll();
      }

      @Override
      public void pace(long bytes) {
        throw new IllegalStateException("a partition's writes are not paced");
      }

      @Override
      public StorageException failure(WriteAdmission.Decision d) {
        return new StorageException("writes are stopped: "
            + (d.reason() == WriteAdmission.Reason.BACKGROUND_ERROR
                ? "a background flush of an index failed: "
                : "every memory component of an index is full and its last flush failed: ")
            + d.error() + "; flush() retries it", d.error());
      }
    }, 0);
  }

  /** What a writer of the group sees of its memory. Caller holds {@code lock}. */
  private WriteAdmission.State memoryState() {
    long active = 0;
    boolean canSeal = true;
    Throwable background = null;
    Throwable flushError = null;
    for (LsmTree t : trees) {
      GroupMember m = t.member();
      active += m.activeBytes();
      canSeal &= m.canSealActive();
      background = background != null ? background : m.backgroundError();
      flushError = flushError != null ? flushError : m.lastFlushError();
    }
    return new WriteAdmission.State(background, 0, 0, Integer.MAX_VALUE,
        WriteAdmission.Memory.GROUP, active >= memoryBudget, canSeal, flushError, false, false);
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
    switchLock.writeLock().lock();
    try {
      wal.roll();
      crashPoints.reached(CrashPoint.LOG_ROTATION);
      for (LsmTree t : trees) {
        t.member().seal();
      }
    } finally {
      switchLock.writeLock().unlock();
    }
  }

  private void ensureOpen() {
    if (closing) {
      throw new StrataException("dataset partition " + dir + " is closed");
    }
    ensureStarted();
  }

  private void ensureStarted() {
    if (wal == null) {
      throw new IllegalStateException("dataset partition " + dir + " is recovered but not"
          + " started; call start() first");
    }
  }

  /**
   * Called by a member before it flushes a component whose operations end at {@code lsn}: see
   * {@link WriteAheadLog#holdThrough(long)}.
   */
  void holdLogThrough(long lsn) {
    wal.holdThrough(lsn);
  }

  /** Called by a member after a flush is durably listed: drops log segments no tree needs. */
  void flushed() {
    long floor = wal.lastLsn();
    for (LsmTree t : trees) {
      floor = Math.min(floor, t.member().logFloor());
    }
    crashPoints.reached(CrashPoint.LOG_TRUNCATION);
    wal.truncateUpTo(floor);
    memberChanged();
  }

  /**
   * The log's side of a member's flushes: the group holds the shared log through the member's
   * memory component, truncates it below every member's floor once the flush is durable, and
   * wakes its writers when a flush ends.
   */
  LogHold logHold() {
    return new GroupLogHold(this);
  }

  /** Called by a member whose flush ended (durable or failed): wakes waiting writers. */
  void memberChanged() {
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
    wal.syncAll();
  }

  /** Log segment files, for tests and statistics. */
  public int logSegmentCount() {
    return wal.segmentCount();
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
    if (wal == null) {
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
    wal.close();
    if (first != null) {
      throw first;
    }
  }

  @Override
  public String toString() {
    return "TreeGroup[" + dir + ", " + trees.size() + " trees]";
  }
}
