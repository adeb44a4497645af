package org.strata.lsm.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.KeyValue;
import org.strata.lsm.Limits;
import org.strata.lsm.LsmStore;
import org.strata.lsm.MergeRecord;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.StallCause;
import org.strata.lsm.StorageException;
import org.strata.lsm.StoreEnvironment;
import org.strata.lsm.StoreStats;
import org.strata.lsm.StrataException;
import org.strata.lsm.WriteBatch;
import org.strata.lsm.component.ComponentMeta;
import org.strata.lsm.component.ComponentWriter;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.KeyHash;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.CreatedPaths;
import org.strata.lsm.io.Directories;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.RepeatedFailures;
import org.strata.lsm.io.WritableFile;
import org.strata.lsm.memory.MemoryComponent;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.KeySketch;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.PolicyDriver;
import org.strata.lsm.spi.PolicyHost;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;
import org.strata.lsm.wal.LogOp;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * The engine behind {@link LsmStore}: one LSM B+-tree index in a directory.
 *
 * <p>Concurrency. Writers append to the log and insert into the active memory component under the
 * read side of {@code switchLock}; sealing the active component takes the write side, so a sealed
 * component holds exactly the log records appended while it was active. Everything else (the
 * current {@link Version}, merge bookkeeping, stalls) is guarded by {@code lock}. Installing a flush
 * or merge and writing the manifest happen under {@code manifestLock}, so manifests are written in
 * the order versions are installed. The merge policy is called under {@code policyLock}, one call
 * at a time.
 *
 * <p>Directory layout: {@code config.json}, {@code MANIFEST}, {@code LOCK}, component files {@code
 * <number>.cmp} and the log in {@code wal/} (or {@code log.dir}).
 *
 * <p>A tree may instead be a member of a {@link TreeGroup} (the indexes of one dataset partition):
 * then it has no log of its own, the group logs every write once for all its trees, decides when
 * the active memory components are sealed (all together, so component boundaries are log sequence
 * boundaries in every tree), and lends its I/O throttle. Such a tree refuses direct writes.
 */
public final class LsmTree implements LsmStore {
  private static final Logger LOG = LogManager.getLogger(LsmTree.class);
  static final String CONFIG_FILE = "config.json";
  private static final int MERGE_LOG_LIMIT = 1000;
  private static final long FLUSH_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final Path dir;
  private final StoreConfig config;
  private final StoreEnvironment env;
  private final Clock clock;
  private final DirectoryLock dirLock;
  private final PageCache cache;
  private final IoThrottle throttle;
  private final IoThrottle writeLimiter;
  private final MergePolicy policy;
  private final PolicyDriver driver;
  private final MergeScheduler scheduler;
  private final TreeGroup group;
  private WriteAheadLog wal;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ReentrantReadWriteLock switchLock = new ReentrantReadWriteLock();
  private final Object manifestLock = new Object();
  private final Object policyLock = new Object();

  private volatile Version current;
  private volatile MemoryComponent active;
  // Guarded by lock.
  private long nextFileNumber;
  private long nextComponentId;
  private long nextMemoryId = 1;
  private long nextRunId = 1;
  private long flushedLsn;
  /** Lowest LSN of a flushed component whose manifest is not yet written; MAX_VALUE if none. */
  private long becomingDurableMinLsn = Long.MAX_VALUE;
  /** The policy's view of {@code current.runs}, with the components that are merging. */
  private RunList runList = RunList.EMPTY;
  private final Set<MergeOperation> liveMerges = new HashSet<>();
  private boolean constraintViolated;
  private final StallTracker stalls = new StallTracker();
  private final ArrayDeque<MergeRecord> mergeLog = new ArrayDeque<>();
  private Throwable lastFlushError;
  private long flushErrorSeq;
  /** Id of the newest memory component whose flush and policy call have both completed. */
  private long lastFlushHandled;
  private long flushRetryAtNanos;
  private boolean flushRetryRequested;
  private boolean closing;
  private boolean flushThreadStop;
  // Counters persisted in the manifest; guarded by lock.
  private long userBytesFlushed;
  private long bytesFlushed;
  private long bytesMerged;
  private long flushes;
  private long merges;

  private final Thread flushThread;
  private final EngineContext context = new EngineContext();
  private final RepeatedFailures flushFailures;
  private final RepeatedFailures mergeFailures;

  private LsmTree(Path dir, StoreConfig config, StoreEnvironment env, DirectoryLock dirLock,
      MergePolicy policy, MergeScheduler scheduler, TreeGroup group) {
    this.dir = dir;
    this.config = config;
    this.env = env;
    this.clock = env.clock();
    this.dirLock = dirLock;
    this.policy = policy;
    this.driver = new PolicyDriver(config.mergePolicy().name(), policy);
    this.scheduler = scheduler;
    this.group = group;
    this.cache = new PageCache(config.pageCacheSize());
    this.throttle = group != null ? group.throttle() : new IoThrottle(config.writeRateLimit(), clock);
    this.writeLimiter = new IoThrottle(config.flowControl().writeRate(), clock);
    this.flushFailures = new RepeatedFailures(LOG, "flush of " + dir);
    this.mergeFailures = new RepeatedFailures(LOG, "merge in " + dir);
    this.flushThread = new Thread(this::flushLoop, "strata-flush-" + dir.getFileName());
    this.flushThread.setDaemon(true);
  }

  /** See {@link LsmStore#open(Path, StoreConfig, StoreEnvironment)}. */
  public static LsmTree open(Path dir, StoreConfig requested, StoreEnvironment env) {
    return open(dir, requested, env, null);
  }

  /** Opens a tree as a member of {@code group}; the group replays the log into it. */
  static LsmTree openMember(Path dir, StoreConfig config, StoreEnvironment env, TreeGroup group) {
    return open(dir, config, env, group);
  }

  private static LsmTree open(Path dir, StoreConfig requested, StoreEnvironment env,
      TreeGroup group) {
    StoreConfig config = requested;
    Path savedConfig = dir.resolve(CONFIG_FILE);
    if (config == null) {
      config = Files.exists(savedConfig) ? StoreConfigJson.read(savedConfig)
          : StoreConfig.defaults();
    }
    // Validate plug-ins before anything is written.
    MergePolicy policy = Plugins.mergePolicy(config.mergePolicy());
    MergeScheduler scheduler = Plugins.mergeScheduler(config.mergeScheduler());
    DirectoryLock lockHeld = null;
    LsmTree tree = null;
    // A refused open leaves the file system as it found it: what this open creates is removed.
    CreatedPaths created = new CreatedPaths();
    try {
      if (Files.exists(dir) && !Files.isDirectory(dir)) {
        throw new StrataException(dir + " exists and is not a directory");
      }
      if (group == null && config.logDir() != null) {
        // Before anything else is written: a log.dir that cannot be created refuses the open.
        createLogDir(created, Path.of(config.logDir()));
      }
      if (Files.isDirectory(dir)) {
        created.watch(dir);
      } else {
        created.createDirectories(dir);
      }
      lockHeld = DirectoryLock.acquire(dir, "store " + dir + " is in use by another process (or"
          + " is already open in this one); close it first");
      tree = new LsmTree(dir, config, env, lockHeld, policy, scheduler, group);
      tree.recover();
      // Saved only once recovery has succeeded, so that a refused open writes no configuration (a
      // member's recovery is its group's log: the group saves it, see saveConfig).
      if (group == null && (requested != null || !Files.exists(savedConfig))) {
        writeConfig(dir, config, env.fileIo());
      }
      tree.start();
      return tree;
    } catch (IOException e) {
      cleanupFailedOpen(tree, lockHeld, scheduler);
      created.removeAll();
      throw new StorageException("cannot open store " + dir + ": " + e, e);
    } catch (RuntimeException e) {
      cleanupFailedOpen(tree, lockHeld, scheduler);
      created.removeAll();
      throw e;
    }
  }

  /**
   * Creates {@code log.dir}, refusing the open with a message naming the key if it cannot be.
   */
  static void createLogDir(CreatedPaths created, Path logDir) {
    try {
      created.createDirectories(logDir);
    } catch (IOException e) {
      throw InvalidConfigurationException.of("log.dir", logDir, "a directory that exists or can be"
          + " created; creating it failed: " + e);
    }
  }

  private static void cleanupFailedOpen(LsmTree tree, DirectoryLock lockHeld,
      MergeScheduler scheduler) {
    try {
      if (tree != null && tree.wal != null) {
        tree.wal.close();
      }
      scheduler.close();
      if (lockHeld != null) {
        lockHeld.close();
      }
    } catch (IOException | RuntimeException suppressed) {
      LOG.warn("cleanup after a failed open: {}", suppressed.toString());
    }
  }

  private static void writeConfig(Path dir, StoreConfig config, org.strata.lsm.io.FileIo io)
      throws IOException {
    Directories.writeAtomically(io, dir.resolve(CONFIG_FILE),
        java.nio.ByteBuffer.wrap(StoreConfigJson.toJson(config).getBytes(
            java.nio.charset.StandardCharsets.UTF_8)));
  }

  static String componentFileName(long fileNumber) {
    return String.format(Locale.ROOT, "%012d.cmp", fileNumber);
  }

  static boolean isComponentFile(String name) {
    return name.endsWith(".cmp") && name.length() == 16 && name.substring(0, 12).chars()
        .allMatch(Character::isDigit);
  }

  // ---- recovery ---------------------------------------------------------------------------

  private void recover() throws IOException {
    Manifest m = Manifest.read(dir);
    if (m == null) {
      m = Manifest.empty();
    }
    Set<String> listed = new HashSet<>();
    for (Manifest.RunEntry r : m.runs()) {
      listed.addAll(r.files());
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String n = p.getFileName().toString();
        if (n.endsWith(".tmp") || (isComponentFile(n) && !listed.contains(n))) {
          LOG.info("deleting {} left by an interrupted flush or merge", n);
          Files.delete(p);
        }
      }
    }
    List<Run> runs = new ArrayList<>();
    try {
      for (Manifest.RunEntry r : m.runs()) {
        List<DiskComponent> cs = new ArrayList<>();
        for (String f : r.files()) {
          Path p = dir.resolve(f);
          if (!Files.exists(p)) {
            throw new CorruptionException(dir.resolve(Manifest.FILE), -1,
                "the manifest lists component " + f + " but the file is missing");
          }
          cs.add(DiskComponent.open(p, Long.parseLong(f.substring(0, 12)), cache));
        }
        runs.add(new Run(nextRunId++, r.level(), cs));
      }
    } catch (RuntimeException e) {
      for (Run r : runs) {
        r.components().forEach(DiskComponent::release);
      }
      throw e;
    }
    nextFileNumber = m.nextFileNumber();
    nextComponentId = m.nextComponentId();
    flushedLsn = m.flushedLsn();
    Map<String, Long> c = m.counters();
    userBytesFlushed = c.getOrDefault("userBytesFlushed", 0L);
    bytesFlushed = c.getOrDefault("bytesFlushed", 0L);
    bytesMerged = c.getOrDefault("bytesMerged", 0L);
    flushes = c.getOrDefault("flushes", 0L);
    merges = c.getOrDefault("merges", 0L);
    for (StallCause s : StallCause.values()) {
      stalls.restore(s, c.getOrDefault("stalls." + s.jsonName() + ".count", 0L),
          c.getOrDefault("stalls." + s.jsonName() + ".nanos", 0L));
    }
    active = new MemoryComponent(nextMemoryId++);
    current = new Version(List.of(active), runs);
    List<RunInfo> infos = new ArrayList<>(runs.size());
    for (Run r : runs) {
      infos.add(r.info(false));
    }
    runList = RunList.of(infos);
    for (Run r : runs) {
      r.components().forEach(DiskComponent::release); // the version holds them now
    }
    if (group == null) {
      Path logDir = config.logDir() == null ? dir.resolve("wal") : Path.of(config.logDir());
      MemoryComponent replayInto = active;
      wal = WriteAheadLog.open(logDir, config.durability(), config.groupCommitIntervalMillis(),
          env.fileIo(), config.logRecoveryMode(), flushedLsn,
          (lsn, op) -> replayInto.put(op.key(), op.value(), lsn));
      if (!replayInto.isEmpty()) {
        LOG.info("recovered {} keys from the write-ahead log of {}", replayInto.entryCount(), dir);
      }
    }
  }

  /** Starts flushing and asks the policy about the recovered components. */
  private void start() {
    flushThread.start();
    afterComponentChange();
  }

  // ---- writes -----------------------------------------------------------------------------

  @Override
  public void put(byte[] key, byte[] value) {
    checkStandalone();
    Limits.checkKey(key);
    Limits.checkValue(value);
    apply(List.of(new LogOp(key, value)));
  }

  @Override
  public void delete(byte[] key) {
    checkStandalone();
    Limits.checkKey(key);
    apply(List.of(new LogOp(key, null)));
  }

  @Override
  public void write(WriteBatch batch) {
    checkStandalone();
    if (!batch.isEmpty()) {
      apply(batch.ops());
    }
  }

  private void checkStandalone() {
    if (group != null) {
      throw new UnsupportedOperationException(dir + " is an index of a dataset; write through the"
          + " dataset, which keeps its indexes consistent");
    }
  }

  private void apply(List<LogOp> ops) {
    pace(ops);
    admit();
    long lsn;
    switchLock.readLock().lock();
    try {
      MemoryComponent target = active;
      lsn = wal.append(ops);
      long first = lsn - ops.size() + 1;
      for (int i = 0; i < ops.size(); i++) {
        LogOp op = ops.get(i);
        target.put(op.key(), op.value(), first + i);
      }
    } finally {
      switchLock.readLock().unlock();
    }
    switch (config.durability()) {
      case SYNC -> wal.sync(lsn);
      case GROUP, NONE -> wal.writeOutIfLarge();
      default -> throw new IllegalStateException();
    }
  }

  /**
   * Write admission beyond the stop: {@code limit} paces every write to {@code
   * flow-control.write-rate}; {@code graded} does so only while the disk components reach {@code
   * slowdown-at} of the policy's global constraint (a slowdown before the stop). Pacing is not a
   * stall and is not counted as one.
   */
  private void pace(List<LogOp> ops) {
    String admission = config.flowControl().admission();
    if (admission.equals("asap")) {
      return;
    }
    if (admission.equals("graded")) {
      int constraint = policy.componentConstraint();
      if (constraint == Integer.MAX_VALUE
          || current.diskComponentCount() < config.flowControl().slowdownAt() * constraint) {
        return;
      }
    }
    long bytes = 0;
    for (LogOp op : ops) {
      bytes += op.key().length + (op.value() == null ? 0 : op.value().length);
    }
    try {
      writeLimiter.acquire(bytes, false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StrataException("interrupted while pacing a write", e);
    }
  }

  /** Waits while the memory components are full or the component constraint is violated. */
  private void admit() {
    waitForAdmission(true);
  }

  /**
   * Waits while the component constraint is violated and, if {@code memory}, while the memory
   * components are full (sealing the active one when another may be added).
   */
  private void waitForAdmission(boolean memory) {
    lock.lock();
    try {
      boolean waited = false;
      while (true) {
        ensureOpen();
        StallCause cause;
        if (constraintViolated && !liveMerges.isEmpty()) {
          cause = StallCause.CONSTRAINT;
        } else if (memory && active.sizeBytes() >= config.memoryComponentSize()) {
          if (current.memory.size() < config.memoryComponentCount()) {
            sealActive();
            continue;
          }
          if (lastFlushError != null) {
            throw new StorageException("writes are stopped: every memory component is full and"
                + " the last flush failed: " + lastFlushError, lastFlushError);
          }
          cause = StallCause.MEMORY_FULL;
        } else {
          break;
        }
        stalls.waiting(cause, clock.nanoTime());
        waited = true;
        changed.await(100, TimeUnit.MILLISECONDS);
      }
      if (waited) {
        stalls.end(clock.nanoTime());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StrataException("interrupted while waiting for a write stall to end", e);
    } finally {
      lock.unlock();
    }
  }

  private void ensureOpen() {
    if (closing) {
      throw new StrataException("store " + dir + " is closed");
    }
  }

  /** Seals the active memory component and starts a new one. Caller holds {@code lock}. */
  private void sealActive() {
    switchLock.writeLock().lock();
    try {
      MemoryComponent old = active;
      old.seal();
      if (group == null) {
        wal.roll(); // a group rolls its shared log itself
      }
      MemoryComponent fresh = new MemoryComponent(nextMemoryId++);
      List<MemoryComponent> mem = new ArrayList<>();
      mem.add(fresh);
      mem.addAll(current.memory);
      active = fresh;
      install(new Version(mem, current.runs)).release();
    } finally {
      switchLock.writeLock().unlock();
    }
    changed.signalAll();
  }

  /** Makes {@code v} current; returns the previous version, which the caller must release. */
  private Version install(Version v) {
    Version old = current;
    current = v;
    return old;
  }

  @Override
  public void sync() {
    ensureOpenUnlocked();
    if (group != null) {
      group.sync();
      return;
    }
    wal.syncAll();
  }

  private void ensureOpenUnlocked() {
    lock.lock();
    try {
      ensureOpen();
    } finally {
      lock.unlock();
    }
  }

  // ---- flush ------------------------------------------------------------------------------

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

  private void flushAllLocked() {
    if (!active.isEmpty() && group == null) { // a group seals its members together
      sealActive();
    }
    long target = -1;
    for (MemoryComponent mc : current.memory) {
      if (mc.isSealed()) {
        target = Math.max(target, mc.id());
      }
    }
    long errSeq = flushErrorSeq;
    flushRetryRequested = true;
    changed.signalAll();
    try {
      while (hasSealedUpTo(target) || lastFlushHandled < target) {
        if (flushErrorSeq != errSeq) {
          throw new StorageException("flush of " + dir + " failed: " + lastFlushError,
              lastFlushError);
        }
        changed.await(100, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StrataException("interrupted while waiting for a flush", e);
    }
  }

  private boolean hasSealedUpTo(long id) {
    for (MemoryComponent mc : current.memory) {
      if (mc.isSealed() && mc.id() <= id) {
        return true;
      }
    }
    return false;
  }

  private MemoryComponent oldestSealed() {
    List<MemoryComponent> mem = current.memory;
    for (int i = mem.size() - 1; i >= 0; i--) {
      if (mem.get(i).isSealed()) {
        return mem.get(i);
      }
    }
    return null;
  }

  private void flushLoop() {
    while (true) {
      MemoryComponent mc;
      lock.lock();
      try {
        while (true) {
          mc = oldestSealed();
          boolean retryWait = lastFlushError != null && !flushRetryRequested
              && clock.nanoTime() < flushRetryAtNanos;
          if (mc != null && !retryWait) {
            break;
          }
          if (flushThreadStop && (mc == null || lastFlushError != null)) {
            return;
          }
          changed.await(50, TimeUnit.MILLISECONDS);
        }
        flushRetryRequested = false;
      } catch (InterruptedException e) {
        return;
      } finally {
        lock.unlock();
      }
      try {
        flushOne(mc);
        flushFailures.succeeded();
        lock.lock();
        try {
          lastFlushError = null;
          changed.signalAll();
        } finally {
          lock.unlock();
        }
      } catch (Throwable e) {
        flushFailures.failed(e, "the memory component stays readable and the flush is retried"
            + " every second (a repeat of the same error is only counted)");
        lock.lock();
        try {
          lastFlushError = e;
          flushErrorSeq++;
          flushRetryAtNanos = clock.nanoTime() + FLUSH_RETRY_NANOS;
          changed.signalAll();
        } finally {
          lock.unlock();
        }
        continue;
      }
      policyAfter("flush");
      lock.lock();
      try {
        // flush() returns only after the policy has seen the new component, so that a caller's
        // awaitMerges() covers the merges this flush triggers.
        lastFlushHandled = Math.max(lastFlushHandled, mc.id());
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  private void flushOne(MemoryComponent mc) throws IOException {
    long fileNumber;
    long componentId;
    lock.lock();
    try {
      fileNumber = nextFileNumber++;
      componentId = nextComponentId++;
    } finally {
      lock.unlock();
    }
    boolean done = false;
    LOG.info("flush started: component id {} of {} ({} keys)", componentId, dir,
        mc.entryCount());
    try {
      Path finalPath = dir.resolve(componentFileName(fileNumber));
      Path tmp = dir.resolve(componentFileName(fileNumber) + ".tmp");
      try {
        try (WritableFile f = env.fileIo().create(tmp);
            ComponentWriter w = newWriter(f, componentId, componentId, mc.maxLsn())
                .withPriority()) {
          try (EntryCursor c = mc.cursor(null, null)) {
            while (c.next()) {
              w.add(c.key(), c.value());
            }
          }
          w.finish();
        }
        Directories.atomicRename(tmp, finalPath);
      } catch (IOException e) {
        Files.deleteIfExists(tmp);
        throw new StorageException(tmp, "cannot write component file " + tmp + ": " + e, e);
      } catch (RuntimeException e) {
        Files.deleteIfExists(tmp);
        throw e;
      }
      DiskComponent dc = DiskComponent.open(finalPath, fileNumber, cache);
      Version old;
      Manifest manifest;
      synchronized (manifestLock) {
        lock.lock();
        try {
          List<MemoryComponent> mem = new ArrayList<>(current.memory);
          mem.remove(mc);
          List<Run> runs = new ArrayList<>();
          Run flushed = new Run(nextRunId++, 0, List.of(dc));
          runs.add(flushed);
          runs.addAll(current.runs);
          runList = runList.addNewest(flushed.info(false));
          old = install(new Version(mem, runs));
          dc.release(); // the new version holds it
          becomingDurableMinLsn = Math.min(becomingDurableMinLsn, mc.minLsn());
          flushedLsn = Math.max(flushedLsn, mc.maxLsn());
          userBytesFlushed += mc.userBytes();
          bytesFlushed += dc.sizeBytes();
          flushes++;
          manifest = manifestSnapshot();
          done = true;
        } finally {
          lock.unlock();
        }
        try {
          manifest.write(dir, env.fileIo());
        } finally {
          old.release();
        }
        lock.lock();
        try {
          becomingDurableMinLsn = Long.MAX_VALUE; // manifests are written one at a time, in order
        } finally {
          lock.unlock();
        }
      }
      if (group == null) {
        wal.truncateUpTo(manifest.flushedLsn());
      } else {
        group.flushed();
      }
      LOG.info("flush finished: component id {} of {}, {} bytes", componentId, dir,
          dc.sizeBytes());
    } finally {
      if (!done) {
        lock.lock();
        try {
          if (nextComponentId == componentId + 1) {
            nextComponentId = componentId; // keep component ids equal to flush ordinals
          }
        } finally {
          lock.unlock();
        }
      }
    }
  }

  ComponentWriter newWriter(WritableFile f, long minId, long maxId, long maxLsn) {
    return new ComponentWriter(f, throttle, config.forceBytes(), config.pageSize(),
        config.bloomFalsePositiveRate(), minId, maxId, maxLsn, clock.currentTimeMillis());
  }

  /** Caller holds {@code lock}. */
  private Manifest manifestSnapshot() {
    List<Manifest.RunEntry> runs = new ArrayList<>();
    for (Run r : current.runs) {
      List<String> files = new ArrayList<>();
      for (DiskComponent c : r.components()) {
        files.add(c.path().getFileName().toString());
      }
      runs.add(new Manifest.RunEntry(r.level(), files));
    }
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("userBytesFlushed", userBytesFlushed);
    counters.put("bytesFlushed", bytesFlushed);
    counters.put("bytesMerged", bytesMerged);
    counters.put("flushes", flushes);
    counters.put("merges", merges);
    for (StallCause s : StallCause.values()) {
      counters.put("stalls." + s.jsonName() + ".count", stalls.count(s));
      counters.put("stalls." + s.jsonName() + ".nanos", stalls.nanos(s));
    }
    return new Manifest(nextFileNumber, nextComponentId, flushedLsn, runs, counters);
  }

  /** {@link #afterComponentChange()} for background threads: a policy failure is logged. */
  private void policyAfter(String event) {
    try {
      afterComponentChange();
    } catch (RuntimeException e) {
      LOG.error("the merge policy of {} failed after a {}", dir, event, e);
    }
  }

  /** Lets the policy react to a new component and re-evaluates the component constraint. */
  private void afterComponentChange() {
    afterComponentChange(false);
  }

  private void afterComponentChange(boolean fullMerge) {
    boolean lagging;
    synchronized (policyLock) {
      lock.lock();
      try {
        if (closing) {
          return;
        }
      } finally {
        lock.unlock();
      }
      driver.diskComponentAdded(context, fullMerge);
      lagging = config.flowControl().constraint().equals("local")
          ? policy.isMergeLaggingLocally(context) : policy.isMergeLagging(context);
    }
    lock.lock();
    try {
      constraintViolated = lagging;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  // ---- merges -----------------------------------------------------------------------------

  /** The engine's {@link MergeContext}: its run list is {@link #runList}. */
  private final class EngineContext implements MergeContext {
    @Override
    public List<RunInfo> runs() {
      lock.lock();
      try {
        return runList.runs();
      } finally {
        lock.unlock();
      }
    }

    @Override
    public boolean scheduleMerge(List<RunInfo> runs, int outputLevel, long targetFileSize) {
      return schedule(MergeRequest.ofRuns(runs, outputLevel, targetFileSize));
    }

    @Override
    public boolean scheduleComponentMerge(List<ComponentInfo> components, int outputLevel,
        long targetFileSize) {
      return schedule(MergeRequest.ofComponents(components, outputLevel, targetFileSize));
    }

    @Override
    public Set<Capability> capabilities() {
      return PolicyHost.ENGINE.offered();
    }

    @Override
    public boolean isMerging(ComponentInfo component) {
      lock.lock();
      try {
        return runList.isMerging(component.name());
      } finally {
        lock.unlock();
      }
    }

    @Override
    public OptionalDouble distinctKeys(List<ComponentInfo> components) {
      lock.lock();
      try {
        Map<String, DiskComponent> byName = componentsByName(current.runs);
        List<KeySketch> sketches = new ArrayList<>(components.size());
        for (ComponentInfo c : components) {
          DiskComponent dc = byName.get(c.name());
          if (dc == null || dc.keySketch() == null) {
            return OptionalDouble.empty();
          }
          sketches.add(dc.keySketch());
        }
        return OptionalDouble.of(KeySketch.merge(sketches).estimate());
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * Schedules a merge if the run list accepts it now: its inputs are marked merging and the
   * operation goes to the scheduler.
   */
  private boolean schedule(MergeRequest request) {
    MergeOperation op;
    lock.lock();
    try {
      if (closing || runList.check(request).isPresent()) {
        return false;
      }
      RunList.Window window = runList.window(request);
      Map<String, DiskComponent> byName = componentsByName(current.runs);
      List<Run> inputs = new ArrayList<>(window.runs().size());
      for (RunInfo r : window.runs()) {
        inputs.add(engineRun(r, byName));
      }
      // Anti-matter may go only when the merge sees the oldest data of its key range.
      op = new MergeOperation(this, request, inputs, window.includesOldest(), clock);
      runList = runList.markMerging(request);
      liveMerges.add(op);
    } finally {
      lock.unlock();
    }
    return submit(op);
  }

  /** The disk components of {@code runs} by name. */
  private static Map<String, DiskComponent> componentsByName(List<Run> runs) {
    Map<String, DiskComponent> out = new HashMap<>();
    for (Run r : runs) {
      for (DiskComponent c : r.components()) {
        out.put(componentName(c), c);
      }
    }
    return out;
  }

  private static String componentName(DiskComponent c) {
    return c.path().getFileName().toString();
  }

  /** The engine's run for a run of the run list, its components found by name. */
  private static Run engineRun(RunInfo info, Map<String, DiskComponent> byName) {
    List<DiskComponent> cs = new ArrayList<>(info.components().size());
    for (ComponentInfo c : info.components()) {
      DiskComponent dc = byName.get(c.name());
      if (dc == null) {
        throw new IllegalStateException("the run list names component " + c.name()
            + ", which the engine does not hold");
      }
      cs.add(dc);
    }
    return new Run(info.runId(), info.level(), cs);
  }

  private boolean submit(MergeOperation op) {
    try {
      scheduler.schedule(op);
    } catch (RuntimeException e) {
      // A scheduler refuses work once it is closed; the merge is dropped and its inputs kept.
      op.abandonUnstarted();
      if (isClosing()) {
        return false;
      }
      throw e;
    }
    return true;
  }

  String name() {
    return dir.getFileName() == null ? dir.toString() : dir.getFileName().toString();
  }

  boolean isClosing() {
    lock.lock();
    try {
      return closing;
    } finally {
      lock.unlock();
    }
  }

  /** Allocates a component file number for a merge output. */
  long allocateFileNumber() {
    lock.lock();
    try {
      return nextFileNumber++;
    } finally {
      lock.unlock();
    }
  }

  Path directory(long fileNumber, boolean tmp) {
    return dir.resolve(componentFileName(fileNumber) + (tmp ? ".tmp" : ""));
  }

  PageCache cache() {
    return cache;
  }

  StoreEnvironment environment() {
    return env;
  }

  /**
   * Installs a finished merge: its inputs are replaced by {@code outputs} (possibly none, when
   * everything was anti-matter), then the manifest is written and the inputs become obsolete.
   */
  void mergeCompleted(MergeOperation op, List<DiskComponent> outputs, MergeRecord record) {
    Version old;
    Manifest manifest;
    synchronized (manifestLock) {
      lock.lock();
      try {
        List<ComponentInfo> outputInfos = new ArrayList<>(outputs.size());
        for (DiskComponent c : outputs) {
          outputInfos.add(c.info());
        }
        RunList next = runList.apply(op.request(), outputInfos, nextRunId++);
        Map<String, DiskComponent> byName = componentsByName(current.runs);
        for (DiskComponent c : outputs) {
          byName.put(componentName(c), c);
        }
        List<Run> runs = new ArrayList<>(next.runs().size());
        for (RunInfo r : next.runs()) {
          runs.add(engineRun(r, byName));
        }
        old = install(new Version(current.memory, runs));
        runList = next;
        outputs.forEach(DiskComponent::release); // the new version holds them
        long out = 0;
        for (DiskComponent c : outputs) {
          out += c.sizeBytes();
        }
        bytesMerged += out;
        merges++;
        addMergeRecord(record);
        manifest = manifestSnapshot();
      } finally {
        lock.unlock();
      }
      boolean written = false;
      try {
        manifest.write(dir, env.fileIo());
        written = true;
      } catch (IOException e) {
        // The merge is installed in memory; the inputs stay on disk (and listed in the manifest
        // on disk) until a later manifest is written, so a crash now loses nothing.
        LOG.error("cannot write the manifest of {} after a merge; its inputs are kept until the"
            + " next manifest write", dir, e);
      } finally {
        if (written) {
          for (Run r : op.inputs()) {
            r.components().forEach(DiskComponent::markObsolete);
          }
        }
        old.release();
      }
    }
  }

  /** Called when a merge failed or was cancelled; its inputs stay as they are. */
  void mergeAbandoned(MergeOperation op, MergeRecord record) {
    lock.lock();
    try {
      runList = runList.clearMerging(op.request());
      addMergeRecord(record);
    } finally {
      lock.unlock();
    }
  }

  /** The last step of every merge, successful or not. */
  void mergeFinished(MergeOperation op, boolean success) {
    if (success) {
      policyAfter("merge");
    }
    lock.lock();
    try {
      liveMerges.remove(op);
      if (!success && liveMerges.isEmpty()) {
        constraintViolated = false;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    scheduler.completed(op);
  }

  private void addMergeRecord(MergeRecord r) {
    mergeLog.addLast(r);
    while (mergeLog.size() > MERGE_LOG_LIMIT) {
      mergeLog.removeFirst();
    }
  }

  @Override
  public void compact() {
    ensureOpenUnlocked();
    afterComponentChange(true);
    awaitMerges();
  }

  @Override
  public void awaitMerges() {
    lock.lock();
    try {
      while (!liveMerges.isEmpty() && !closing) {
        changed.await(100, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StrataException("interrupted while waiting for merges", e);
    } finally {
      lock.unlock();
    }
  }

  // ---- reads ------------------------------------------------------------------------------

  private Version acquire() {
    while (true) {
      Version v = current;
      if (v.tryRetain()) {
        return v;
      }
    }
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    Limits.checkKey(key);
    Version v = acquire();
    try {
      for (MemoryComponent mc : v.memory) {
        MemoryComponent.Versioned e = mc.get(key);
        if (e != null) {
          return Optional.ofNullable(e.value());
        }
      }
      long hash = KeyHash.hash64(key);
      for (Run run : v.runs) {
        DiskComponent c = componentFor(run, key);
        if (c == null) {
          continue;
        }
        DiskComponent.Lookup l = c.get(key, hash);
        if (l != null) {
          return Optional.ofNullable(l.value());
        }
      }
      return Optional.empty();
    } finally {
      v.release();
    }
  }

  /** The component of a run whose key range may hold {@code key}, or null. */
  private static DiskComponent componentFor(Run run, byte[] key) {
    List<DiskComponent> cs = run.components();
    if (cs.size() == 1) {
      return cs.get(0);
    }
    int lo = 0;
    int hi = cs.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      ComponentMeta m = cs.get(mid).meta();
      if (Arrays.compareUnsigned(key, m.minKey()) < 0) {
        hi = mid - 1;
      } else if (Arrays.compareUnsigned(key, m.maxKey()) > 0) {
        lo = mid + 1;
      } else {
        return cs.get(mid);
      }
    }
    return null;
  }

  @Override
  public ScanCursor scan(byte[] from, byte[] to) {
    Version v = acquire();
    try {
      List<EntryCursor> sources = new ArrayList<>();
      if (from == null || to == null || Arrays.compareUnsigned(from, to) <= 0) {
        for (MemoryComponent mc : v.memory) {
          sources.add(mc.cursor(from, to));
        }
        for (Run run : v.runs) {
          List<DiskComponent> overlapping = new ArrayList<>();
          for (DiskComponent c : run.components()) {
            ComponentMeta m = c.meta();
            boolean after = to != null && Arrays.compareUnsigned(m.minKey(), to) > 0;
            boolean before = from != null && Arrays.compareUnsigned(m.maxKey(), from) < 0;
            if (!after && !before) {
              overlapping.add(c);
            }
          }
          if (!overlapping.isEmpty()) {
            sources.add(new ConcatCursor(overlapping, c -> c.cursor(from, to)));
          }
        }
      }
      return new VersionScan(v, new MergingCursor(sources, true));
    } catch (RuntimeException e) {
      v.release();
      throw e;
    }
  }

  private static final class VersionScan implements ScanCursor {
    private final Version version;
    private final MergingCursor cursor;
    private boolean ready;
    private boolean hasNext;
    private boolean closed;

    VersionScan(Version version, MergingCursor cursor) {
      this.version = version;
      this.cursor = cursor;
    }

    @Override
    public boolean hasNext() {
      if (closed) {
        return false;
      }
      if (!ready) {
        hasNext = cursor.next();
        ready = true;
        if (!hasNext) {
          close();
        }
      }
      return hasNext;
    }

    @Override
    public KeyValue next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      ready = false;
      return new KeyValue(cursor.key(), cursor.value());
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        cursor.close();
        version.release();
      }
    }
  }

  // ---- membership in a TreeGroup -----------------------------------------------------------

  /** Waits while this tree's merge policy reports the component constraint violated. */
  void awaitConstraint() {
    waitForAdmission(false);
  }

  /**
   * Inserts logged operations into the active memory component. The group holds its switch lock
   * (shared), so no seal runs concurrently.
   */
  void insert(byte[] key, byte[] value, long lsn) {
    active.put(key, value, lsn);
  }

  /** Bytes the active memory component charges to the memory budget. */
  long activeBytes() {
    return active.sizeBytes();
  }

  /** True when sealing the active memory component would not exceed the memory components. */
  boolean canSealActive() {
    lock.lock();
    try {
      return active.isEmpty() || current.memory.size() < config.memoryComponentCount();
    } finally {
      lock.unlock();
    }
  }

  /** Seals a non-empty active memory component; the group holds its switch lock exclusively. */
  void sealForGroup() {
    lock.lock();
    try {
      ensureOpen();
      if (!active.isEmpty()) {
        sealActive();
      }
    } finally {
      lock.unlock();
    }
  }

  /** The highest sequence number on disk (the manifest's flushed LSN). */
  long flushedLsn() {
    lock.lock();
    try {
      return flushedLsn;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The sequence number below which this tree needs nothing from the log: one less than the
   * lowest number in its unflushed memory components, or {@link Long#MAX_VALUE} if they are empty.
   */
  long logFloor() {
    lock.lock();
    try {
      long min = becomingDurableMinLsn;
      for (MemoryComponent mc : current.memory) {
        min = Math.min(min, mc.minLsn());
      }
      return min == Long.MAX_VALUE ? Long.MAX_VALUE : min - 1;
    } finally {
      lock.unlock();
    }
  }

  /** The error of the last flush if it failed and none has succeeded since, else null. */
  Throwable lastFlushError() {
    lock.lock();
    try {
      return lastFlushError;
    } finally {
      lock.unlock();
    }
  }

  // ---- introspection ----------------------------------------------------------------------

  @Override
  public List<RunInfo> runs() {
    return context.runs();
  }

  @Override
  public StoreStats stats() {
    lock.lock();
    try {
      Version v = current;
      long diskEntries = 0;
      long diskBytes = 0;
      for (Run r : v.runs) {
        diskEntries += r.entries();
        diskBytes += r.sizeBytes();
      }
      long pendingMergeBytes = 0;
      for (MergeOperation op : liveMerges) {
        pendingMergeBytes += op.remainingInputBytes();
      }
      long memEntries = 0;
      long memUser = 0;
      for (MemoryComponent mc : v.memory) {
        memEntries += mc.entryCount();
        memUser += mc.userBytes();
      }
      double wa = userBytesFlushed == 0 ? 0 : (double) (bytesFlushed + bytesMerged)
          / userBytesFlushed;
      double mwa = bytesFlushed == 0 ? 0 : (double) (bytesFlushed + bytesMerged) / bytesFlushed;
      return new StoreStats(v.diskComponentCount(), v.runs.size(), diskEntries, memEntries,
          userBytesFlushed + memUser, userBytesFlushed, bytesFlushed, bytesMerged, flushes, merges,
          wa, mwa, stalls.totals(clock.nanoTime()), List.copyOf(mergeLog), cache.hits(),
          cache.misses(), diskBytes, pendingMergeBytes, stalls.ongoing());
    } finally {
      lock.unlock();
    }
  }

  @Override
  public StoreConfig config() {
    return config;
  }

  @Override
  public Path directory() {
    return dir;
  }

  /** The shared I/O throttle, for statistics and tests. */
  public IoThrottle throttle() {
    return throttle;
  }

  /** Number of write-ahead log segment files. */
  public int logSegmentCount() {
    return group != null ? group.logSegmentCount() : wal.segmentCount();
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
        LOG.error("flush at close of {} failed (after {} failed background attempts); the"
            + " write-ahead log keeps the data", dir, flushFailures.failures(), e);
      }
      closing = true;
      flushThreadStop = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    scheduler.close();
    List<MergeOperation> leftover;
    lock.lock();
    try {
      leftover = new ArrayList<>(liveMerges);
    } finally {
      lock.unlock();
    }
    for (MergeOperation op : leftover) {
      op.abandonUnstarted();
    }
    try {
      flushThread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (wal != null) {
      wal.close();
    }
    Manifest manifest;
    synchronized (manifestLock) {
      lock.lock();
      try {
        stalls.end(clock.nanoTime());
        manifest = manifestSnapshot();
      } finally {
        lock.unlock();
      }
      try {
        manifest.write(dir, env.fileIo());
      } catch (IOException e) {
        LOG.error("cannot write the manifest of {} at close", dir, e);
      }
    }
    current.release();
    try {
      dirLock.close();
    } catch (IOException e) {
      LOG.warn("cannot release the lock of {}: {}", dir, e.toString());
    }
  }

  /** Failures of this tree's merges, logged once per distinct error (see MergeOperation). */
  RepeatedFailures mergeFailures() {
    return mergeFailures;
  }

  /** Saves a member's configuration once its group has recovered the shared log. */
  void saveConfig() throws IOException {
    writeConfig(dir, config, env.fileIo());
  }

  /**
   * Closes a member tree whose group failed to open: stops its threads and releases its files and
   * lock, but flushes nothing and writes no manifest, so a refused open leaves the directory as it
   * was (whatever the log replayed into memory is dropped; the log still has it).
   */
  void abandon() {
    lock.lock();
    try {
      closing = true;
      flushThreadStop = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    scheduler.close();
    List<MergeOperation> leftover;
    lock.lock();
    try {
      leftover = new ArrayList<>(liveMerges);
    } finally {
      lock.unlock();
    }
    leftover.forEach(MergeOperation::abandonUnstarted);
    flushThread.interrupt();
    try {
      flushThread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    current.release();
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
