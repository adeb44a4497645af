package org.strata.lsm.dataset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.Limits;
import org.strata.lsm.StallCause;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StoreStats;
import org.strata.lsm.StoreStats.StallTotals;
import org.strata.lsm.StrataException;
import org.strata.lsm.Utf8;
import org.strata.lsm.component.KeyHash;
import org.strata.lsm.config.PageCacheConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.engine.LsmTree;
import org.strata.lsm.io.CreatedPaths;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.io.IoBudgetCounters;
import org.strata.lsm.io.IoThrottle;

/**
 * A dataset, as in AsterixDB: a primary LSM B+-tree (primary key to record) and any number of
 * secondary LSM B+-trees (secondary value plus primary key to nothing), hash-partitioned by primary
 * key into {@code partitions} partitions that each own one tree per index. Every tree has its own
 * merge policy and scheduler instance; all share the dataset's memory budget and I/O budget. A
 * write is one log record covering every index it touches, so recovery never leaves a secondary
 * index disagreeing with the primary. Thread-safe.
 *
 * <p>Scans and secondary queries span partitions: see {@link DatasetQueries} (under {@code lazy}
 * maintenance stale secondary entries are dropped there).
 *
 * <p>Directory: {@code dataset.json}, {@code LOCK}, and {@code p<i>/} per partition holding {@code
 * wal/} and one directory per index ({@code primary}, then each secondary by name).
 */
public final class Dataset implements AutoCloseable {
  private static final Logger LOG = LogManager.getLogger(Dataset.class);
  /** The configuration file that marks a directory as a dataset. */
  public static final String CONFIG_FILE = "dataset.json";

  private final Path dir;
  private final DatasetConfig config;
  private final DirectoryLock dirLock;
  private final List<Partition> partitions = new ArrayList<>();
  private volatile boolean closed;

  private IoThrottle throttle; // set once by openPartitions

  Dataset(Path dir, DatasetConfig config, DirectoryLock dirLock) {
    this.dir = dir;
    this.config = config;
    this.dirLock = dirLock;
  }

  /** True if {@code dir} holds a dataset. */
  public static boolean isDataset(Path dir) {
    return Files.isRegularFile(dir.resolve(CONFIG_FILE));
  }

  /** {@link #open(Path, DatasetConfig, StoreEnvironment)} with the real clock and files. */
  public static Dataset open(Path dir, DatasetConfig config) {
    return open(dir, config, StoreEnvironment.standard());
  }

  /**
   * Opens the dataset in {@code dir}, creating it if absent. {@code config}, when given, is
   * validated and saved; it may change the store settings of an existing dataset but not its
   * indexes, maintenance or partitions. When null, the saved configuration is used.
   *
   * @throws InvalidConfigurationException for a bad configuration, before anything is written
   */
  public static Dataset open(Path dir, DatasetConfig config, StoreEnvironment env) {
    return DatasetOpen.open(dir, config, env);
  }

  /**
   * Starts the partitions, only once every partition's log has replayed: no partition deletes the
   * leftovers of a crash, cuts its log or starts a flush or merge while a later one can still
   * refuse the open.
   */
  void startPartitions(CreatedPaths created) {
    for (Partition part : partitions) {
      // From its start a partition's log changes its files (a new segment its catalogue
      // lists): a later failure of this open must not remove them.
      if (part.group().logPredatesOpen()) {
        created.keep(part.group().logDirectory());
      }
      part.start();
    }
  }

  void openPartitions(StoreEnvironment env, CreatedPaths created, Path savedConfig)
      throws IOException {
    StoreConfig s = config.store();
    int p = config.partitions();
    int trees = p * (1 + config.secondaryIndexes().size());
    // Trees keep their own page caches: the dataset's cache budget is split evenly.
    StoreConfig treeConfig =
        s.withPageCache(PageCacheConfig.of(s.pageCache().size().bytes() / trees));
    long memoryBudget = Math.max(1, s.memoryComponent().size().bytes() / p);
    IoThrottle throttle = new IoThrottle(s.io().writeRateLimit().bytes(), env.clock());
    if (s.device() != null) {
      // One device for the dataset: every partition's log, flushes and merges share its time.
      env = new StoreEnvironment(env.clock(), new org.strata.lsm.io.DeviceFileIo(env.fileIo(),
          s.device().open(env.clock())), env.crashPoints());
    }
    this.throttle = throttle;
    for (int i = 0; i < p; i++) {
      StoreConfig logSettings = s;
      if (s.log().dir() != null) {
        Path partitionLog = Path.of(s.log().dir()).resolve("p" + i);
        created.createDirectories(partitionLog); // remembered, so a refused open removes it
        logSettings = s.withLog(s.log().withDir(partitionLog.toString()));
      }
      partitions.add(Partition.recover(dir.resolve("p" + i), config, treeConfig, memoryBudget,
          logSettings, throttle, env, savedConfig));
    }
  }

  // ---- writes and point reads ---------------------------------------------------------------

  /**
   * Inserts or replaces the record {@code key}; durable on return under {@code sync}. The key,
   * field names and values must be valid Unicode text: a lone surrogate is refused with an {@link
   * IllegalArgumentException} naming it, and nothing is written.
   */
  public void upsert(String key, Map<String, String> fields) {
    byte[] k = keyBytes(key);
    for (Map.Entry<String, String> e : fields.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) {
        throw new IllegalArgumentException("record " + Utf8.printable(key) + " has a null field"
            + " name or value; fields are non-null strings");
      }
    }
    ensureOpen();
    partitionFor(k).upsert(k, fields);
  }

  /** Deletes the record {@code key} (anti-matter in the primary; see the maintenance modes). */
  public void delete(String key) {
    byte[] k = keyBytes(key);
    ensureOpen();
    partitionFor(k).delete(k);
  }

  /** The record {@code key}, if present. */
  public Optional<DatasetRecord> get(String key) {
    byte[] k = keyBytes(key);
    ensureOpen();
    return partitionFor(k).get(k).map(f -> new DatasetRecord(key, f));
  }

  /** The UTF-8 bytes of a primary key; refuses a key that is not valid Unicode or too long. */
  static byte[] keyBytes(String key) {
    if (key == null) {
      throw new IllegalArgumentException("primary key is missing");
    }
    byte[] k = Utf8.encode(key, "key");
    Limits.checkKey(k);
    return k;
  }

  /** The partition that owns primary key {@code key}. */
  int partitionOf(byte[] key) {
    return partitionOf(key, partitions.size());
  }

  /** The partition, of {@code partitions}, that owns primary key {@code key} (docs/format.md). */
  static int partitionOf(byte[] key, int partitions) {
    return (int) Math.floorMod(KeyHash.hash64(key), (long) partitions);
  }

  private Partition partitionFor(byte[] key) {
    return partitions.get(partitionOf(key));
  }

  private void ensureOpen() {
    if (closed) {
      throw new StrataException("dataset " + dir + " is closed");
    }
  }

  /**
   * Up to {@code limit} records with primary key at or above {@code from} (null: from the first),
   * in primary-key order (UTF-8 bytes), merged across partitions.
   */
  public List<DatasetRecord> scan(String from, int limit) {
    List<DatasetRecord> out = new ArrayList<>(Math.min(Math.max(limit, 0), 1024));
    scan(from, true, limit, r -> {
      out.add(r);
      return true;
    });
    return out;
  }

  /**
   * Visits, in primary-key order (UTF-8 bytes) merged across partitions, up to {@code limit}
   * records with primary key at or above {@code from} ({@code inclusive}) or above it (not
   * {@code inclusive}; null {@code from}: from the first record), until {@code visitor} returns
   * false. The components read stay pinned only during this call, so a long reply can be produced
   * in pieces, each piece a call that starts after the last key of the one before.
   *
   * @param visitor called with each record; false stops the scan after that record
   * @return the number of records visited
   */
  public int scan(String from, boolean inclusive, int limit, Predicate<DatasetRecord> visitor) {
    byte[] lo = DatasetQueries.scanStart(from, inclusive, limit);
    ensureOpen();
    return queries().scan(lo, limit, visitor);
  }

  // ---- secondary queries --------------------------------------------------------------------

  /** The records whose {@code index} field equals {@code value}, sorted by primary key. */
  public List<DatasetRecord> queryEq(String index, String value) {
    if (value == null) {
      throw new IllegalArgumentException("the value to look up is missing");
    }
    return queryRange(index, value, value);
  }

  /**
   * The records whose {@code index} field lies in {@code [from, to]} (both inclusive, compared as
   * UTF-8 bytes; a null bound is open), sorted by primary key.
   */
  public List<DatasetRecord> queryRange(String index, String from, String to) {
    ensureOpen();
    return queries().queryRange(index, from, to);
  }

  /** Scans and queries over the partitions' trees. */
  private DatasetQueries queries() {
    return new DatasetQueries(dir, config, partitions);
  }

  // ---- maintenance and introspection --------------------------------------------------------

  /** Seals every memory component and waits until all are disk components. */
  public void flush() {
    ensureOpen();
    for (Partition p : partitions) {
      p.group().flush();
    }
  }

  /** Asks every tree's merge policy for a full merge and waits for the merges. */
  public void compact() {
    ensureOpen();
    for (Partition p : partitions) {
      for (LsmTree t : p.group().trees()) {
        t.compact();
      }
    }
  }

  /** Waits until no tree has a merge scheduled or running. */
  public void awaitMerges() {
    for (Partition p : partitions) {
      for (LsmTree t : p.group().trees()) {
        t.awaitMerges();
      }
    }
  }

  /** Forces every partition's log. */
  public void sync() {
    ensureOpen();
    for (Partition p : partitions) {
      p.group().sync();
    }
  }

  /** The configuration in force. */
  public DatasetConfig config() {
    return config;
  }

  /** The dataset's directory. */
  public Path directory() {
    return dir;
  }

  /** Number of partitions. */
  public int partitionCount() {
    return partitions.size();
  }

  /**
   * The partition (0 to {@link #partitionCount()} - 1) that owns the record {@code key}: each
   * partition has its own log, so under {@code group} durability a crash loses each partition's
   * own window, and tools that check a crashed dataset follow each partition separately.
   */
  public int partitionOf(String key) {
    return partitionOf(keyBytes(key));
  }

  /**
   * The tree of {@code index} ({@code primary} or a secondary name) in {@code partition}, for
   * statistics and verification; writing to it directly is refused.
   */
  public LsmTree tree(int partition, String index) {
    Partition p = partitions.get(partition);
    return index.equals(SecondaryIndexSpec.PRIMARY)
        ? p.primary() : p.secondary(queries().indexNumber(index));
  }

  /** Index names: {@code primary}, then the secondary indexes in configuration order. */
  public List<String> indexNames() {
    List<String> names = new ArrayList<>();
    names.add(SecondaryIndexSpec.PRIMARY);
    config.secondaryIndexes().forEach(s -> names.add(s.name()));
    return names;
  }

  /** Where the dataset's I/O budget went: its flushes' and merges' use of the shared throttle. */
  public IoBudgetCounters ioBudgetCounters() {
    return throttle.counters();
  }

  /** Statistics per tree, keyed {@code p<partition>/<index>}. */
  public Map<String, StoreStats> treeStats() {
    Map<String, StoreStats> out = new LinkedHashMap<>();
    for (int p = 0; p < partitions.size(); p++) {
      for (String name : indexNames()) {
        out.put("p" + p + "/" + name, tree(p, name).stats());
      }
    }
    return out;
  }

  /** Memory-full stalls, summed over partitions (constraint stalls are in each tree's stats). */
  public Map<StallCause, StallTotals> memoryStalls() {
    Map<StallCause, StallTotals> sum = new LinkedHashMap<>();
    for (Partition p : partitions) {
      p.group().memoryStalls().forEach((cause, t) -> sum.merge(cause, t,
          (a, b) -> new StallTotals(a.count() + b.count(), a.seconds() + b.seconds())));
    }
    return sum;
  }

  /**
   * Checks that every secondary index agrees with the primary index; see {@link DatasetVerifier}.
   */
  /** What the dataset's device model served (every partition's), or none. */
  public org.strata.lsm.io.DeviceCounters deviceCounters() {
    return partitions.isEmpty() ? org.strata.lsm.io.DeviceCounters.NONE
        : partitions.get(0).primary().deviceCounters();
  }

  public DatasetVerifier.Report verify() {
    ensureOpen();
    return DatasetVerifier.verify(this);
  }

  List<Partition> partitions() {
    return partitions;
  }

  /** Flushes and closes every partition, then releases the directory lock. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException first = null;
    for (Partition p : partitions) {
      try {
        p.close();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    try {
      dirLock.close();
    } catch (IOException e) {
      LOG.warn("cannot release the lock of {}: {}", dir, e.toString());
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public String toString() {
    return "Dataset[" + dir + "]";
  }
}
