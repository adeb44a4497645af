package org.strata.lsm.dataset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.strata.lsm.StrataException;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.engine.StoreVerifier;
import org.strata.lsm.engine.TreeSnapshot;
import org.strata.lsm.io.DirectoryLock;
import org.strata.lsm.wal.LogScan;
import org.strata.lsm.wal.LogVerifier;

/**
 * Checks a dataset. Two parts:
 *
 * <ul>
 *   <li>Agreement of its indexes: every primary record decodes and lives in the partition its key
 *       hashes to, and every secondary index holds an entry for each record that has its field.
 *       Under {@code eager} maintenance a secondary entry without a matching record is a fault;
 *       under {@code lazy} it is a stale entry, counted, which queries filter out.
 *   <li>{@link #verifyFiles}: every file of a closed dataset, read-only: {@code dataset.json}, each
 *       index directory ({@link StoreVerifier#verifyIndex}), each partition's shared log ({@link
 *       LogVerifier}), then the agreement above on what an open would see (the components plus
 *       every intact log record above each index's flushed sequence number), without opening the
 *       dataset: nothing is replayed into files, truncated or created.
 * </ul>
 */
public final class DatasetVerifier {
  static final int MAX_FAULTS = 100;

  private DatasetVerifier() {}

  /**
   * The outcome of the agreement check.
   *
   * @param records primary records checked
   * @param entries secondary entries checked, per index name
   * @param staleEntries secondary entries with no matching record (lazy maintenance), per index
   * @param faults disagreements, at most {@value #MAX_FAULTS}; empty when the dataset is consistent
   */
  public record Report(long records, Map<String, Long> entries, Map<String, Long> staleEntries,
      List<String> faults) {}

  /**
   * The outcome of {@link #verifyFiles}.
   *
   * @param faults every fault, each naming its file (and offset where there is one)
   * @param notes what is not a fault but worth knowing
   * @param componentsChecked components verified, over all indexes
   * @param entriesChecked entries in them
   * @param logSegmentsChecked log segments read, over all partitions
   * @param logRecordsChecked intact records in them
   * @param agreement the agreement check, or null if the files did not allow it (see the faults)
   */
  public record FileReport(List<String> faults, List<String> notes, int componentsChecked,
      long entriesChecked, int logSegmentsChecked, long logRecordsChecked, Report agreement) {
    public FileReport {
      faults = List.copyOf(faults);
      notes = List.copyOf(notes);
    }

    public boolean ok() {
      return faults.isEmpty();
    }
  }

  static Report verify(Dataset ds) {
    IndexAgreement tally = new IndexAgreement(ds.config());
    List<Partition> parts = ds.partitions();
    for (int p = 0; p < parts.size(); p++) {
      Partition part = parts.get(p);
      tally.checkPartition(p, parts.size(), t -> part.group().tree(t).scan(null, null));
    }
    return tally.report();
  }

  /**
   * Verifies every file of the closed dataset in {@code dir} without changing anything.
   *
   * @throws IllegalArgumentException if {@code dir} is missing or holds no {@code dataset.json}
   * @throws StrataException if a process has the dataset open
   */
  @SuppressWarnings("try") // the lock is held for the scope of the try, not used in it
  public static FileReport verifyFiles(Path dir) {
    if (!Dataset.isDataset(dir)) {
      throw new IllegalArgumentException(dir + " is not a dataset: " + (!Files.exists(dir)
          ? "it does not exist" : "it holds no " + Dataset.CONFIG_FILE));
    }
    try (DirectoryLock lock = DirectoryLock.acquireSharedIfPresent(dir, "dataset " + dir
        + " is open in another process (or in this one); close it before verifying")) {
      return verifyFilesLocked(dir);
    } catch (IOException e) {
      throw new StrataException("cannot verify " + dir + ": " + e, e);
    }
  }

  /** What a verification of the files found so far: faults, notes and counts. */
  private static final class Findings {
    final List<String> faults = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    int components;
    long entries;
    int segments;
    long records;
    boolean filesOk = true;
  }

  private static FileReport verifyFilesLocked(Path dir) throws IOException {
    Findings found = new Findings();
    DatasetConfig cfg = readConfig(dir, found.faults);
    List<List<String>> layout = cfg != null ? expectedLayout(cfg) : foundLayout(dir);
    StoreConfig store = cfg != null ? cfg.store() : StoreConfig.defaults();
    if (cfg == null) {
      found.notes.add("the dataset configuration is unreadable: checked the partitions and"
          + " indexes found on disk, the logs in the default place; the agreement of the indexes"
          + " was not checked");
    }
    for (int p = 0; p < layout.size(); p++) {
      verifyPartition(dir, store, p, layout.get(p), found);
    }
    Report agreement = null;
    if (cfg != null && found.filesOk) {
      agreement = agreement(dir, cfg, found.faults, found.notes);
      found.faults.addAll(agreement.faults());
    } else if (cfg != null) {
      found.notes.add("the agreement of the indexes was not checked: some index files are"
          + " faulty");
    }
    return new FileReport(found.faults, found.notes, found.components, found.entries,
        found.segments, found.records, agreement);
  }

  /**
   * The dataset's configuration if it reads, its plug-ins exist and it describes the directories
   * on disk; null (with the fault added) otherwise.
   */
  private static DatasetConfig readConfig(Path dir, List<String> faults) throws IOException {
    Path configFile = dir.resolve(Dataset.CONFIG_FILE);
    DatasetConfig cfg = null;
    try {
      cfg = DatasetConfigJson.read(configFile);
      Plugins.mergePolicy(cfg.store().mergePolicy());
      Plugins.mergeScheduler(cfg.store().mergeScheduler()).close();
    } catch (StrataException | IllegalArgumentException e) {
      faults.add(configFile + ": " + e.getMessage());
      cfg = null;
    }
    if (cfg != null) {
      try {
        String mismatch = DatasetLayout.mismatch(dir, cfg);
        if (mismatch == null) {
          mismatch = layoutMismatch(dir, cfg);
        }
        if (mismatch != null) {
          faults.add(configFile + ": " + mismatch);
          cfg = null; // check what is on disk, as for an unreadable configuration
        }
      } catch (StrataException e) {
        faults.add(e.getMessage());
      }
    }
    return cfg;
  }

  /** Verifies the files of partition {@code p}: its indexes, then its log. */
  private static void verifyPartition(Path dir, StoreConfig store, int p, List<String> indexes,
      Findings found) throws IOException {
    Path pdir = dir.resolve("p" + p);
    long minFlushed = verifyIndexes(pdir, p, indexes, found);
    java.util.UUID logId = recordedLogId(dir, store, p, indexes, found.faults);
    LogVerifier.Result log = LogVerifier.verify(partitionLog(dir, store, p),
        minFlushed == Long.MAX_VALUE ? 0 : minFlushed, store.log().recoveryMode(),
        new org.strata.lsm.wal.LogOwner(logId, pdir));
    found.faults.addAll(log.faults());
    found.notes.addAll(log.notes());
    found.segments += log.segments();
    found.records += log.records();
  }

  /**
   * Verifies the index directories of partition {@code p}; returns the lowest flushed sequence
   * number among them ({@code Long.MAX_VALUE} if none).
   */
  private static long verifyIndexes(Path pdir, int p, List<String> indexes, Findings found) {
    long minFlushed = Long.MAX_VALUE;
    for (String index : indexes) {
      Path idir = pdir.resolve(index);
      if (!Files.isDirectory(idir)) {
        found.faults.add(idir + ": the directory of index " + index + " of partition " + p
            + " is missing");
        found.filesOk = false;
        continue;
      }
      StoreVerifier.VerifyReport r;
      try {
        r = StoreVerifier.verifyIndex(idir);
      } catch (IllegalArgumentException e) {
        found.faults.add(e.getMessage());
        found.filesOk = false;
        continue;
      }
      found.faults.addAll(r.faults());
      found.notes.addAll(r.notes());
      found.filesOk &= r.ok();
      found.components += r.componentsChecked();
      found.entries += r.entriesChecked();
      try {
        minFlushed = Math.min(minFlushed, StoreVerifier.flushedLsn(idir));
      } catch (IOException | RuntimeException e) {
        minFlushed = 0; // the manifest fault is reported above
      }
    }
    return minFlushed;
  }

  /**
   * The log id the indexes of partition {@code p} recorded (the last one found), adding a fault
   * when they disagree or recorded the log in another directory than the configuration's.
   */
  private static java.util.UUID recordedLogId(Path dir, StoreConfig store, int p,
      List<String> indexes, List<String> faults) throws IOException {
    Path pdir = dir.resolve("p" + p);
    java.util.UUID logId = null;
    for (String index : indexes) {
      StoreVerifier.RecordedLog rec = StoreVerifier.recordedLog(pdir.resolve(index));
      if (rec.id() == null) {
        continue;
      }
      if (logId != null && !logId.equals(rec.id())) {
        faults.add(pdir.resolve(index).resolve("MANIFEST") + ": index " + index + " recorded"
            + " log " + rec.id() + ", another index of partition " + p + " recorded log "
            + logId + ": index directories of different partitions were mixed up");
      }
      logId = rec.id();
      Path configuredLog = partitionLog(dir, store, p).toAbsolutePath().normalize();
      if (rec.dir() != null && !pdir.toAbsolutePath().normalize().resolve(rec.dir()).normalize()
          .equals(configuredLog)) {
        faults.add(pdir.resolve(index).resolve("MANIFEST") + ": the log of partition " + p
            + " was last opened in " + rec.dir() + " but the configuration puts it in "
            + configuredLog);
      }
    }
    return logId;
  }

  /** The directory of partition {@code p}'s shared log. */
  private static Path partitionLog(Path dir, StoreConfig store, int p) {
    return store.log().dir() == null ? dir.resolve("p" + p).resolve("wal")
        : dir.toAbsolutePath().normalize().resolve(store.log().dir()).resolve("p" + p);
  }

  /** Per partition, the index directory names the configuration says it has. */
  private static List<List<String>> expectedLayout(DatasetConfig cfg) {
    List<String> names = new ArrayList<>();
    names.add(SecondaryIndexSpec.PRIMARY);
    cfg.secondaryIndexes().forEach(s -> names.add(s.name()));
    List<List<String>> out = new ArrayList<>();
    for (int p = 0; p < cfg.partitions(); p++) {
      out.add(names);
    }
    return out;
  }

  /**
   * Null if the partitions and index directories in {@code dir} are those {@code cfg} describes;
   * otherwise what differs. Only directories that hold a store count ({@link #foundLayout}).
   */
  static String layoutMismatch(Path dir, DatasetConfig cfg) throws IOException {
    List<List<String>> expected = new ArrayList<>();
    for (List<String> names : expectedLayout(cfg)) {
      expected.add(names.stream().sorted().toList());
    }
    List<List<String>> found = foundLayout(dir);
    if (found.equals(expected)) {
      return null;
    }
    return "the configuration describes " + expected.size() + " partition(s) with indexes "
        + expected.get(0) + ", the dataset directory holds " + found.size() + " partition(s)"
        + (found.isEmpty() ? "" : " with indexes " + found);
  }

  /** Without a configuration: the partitions {@code p0, p1, ...} and their store directories. */
  private static List<List<String>> foundLayout(Path dir) throws IOException {
    List<List<String>> out = new ArrayList<>();
    for (int p = 0; Files.isDirectory(dir.resolve("p" + p)); p++) {
      List<String> names = new ArrayList<>();
      try (Stream<Path> s = Files.list(dir.resolve("p" + p))) {
        s.filter(d -> Files.isDirectory(d) && (Files.exists(d.resolve("config.json"))
            || Files.exists(d.resolve("MANIFEST")))).map(d -> d.getFileName().toString())
            .sorted().forEach(names::add);
      }
      out.add(names);
    }
    return out;
  }

  /**
   * The agreement check on read-only snapshots: per partition, each index's components plus the
   * intact records of the partition's log above that index's flushed sequence number.
   */
  private static Report agreement(Path dir, DatasetConfig cfg, List<String> faults,
      List<String> notes) {
    IndexAgreement tally = new IndexAgreement(cfg);
    List<String> names = expectedLayout(cfg).get(0);
    for (int p = 0; p < cfg.partitions(); p++) {
      List<TreeSnapshot> snaps = new ArrayList<>();
      try {
        long minFlushed = Long.MAX_VALUE;
        for (String name : names) {
          TreeSnapshot s = TreeSnapshot.open(dir.resolve("p" + p).resolve(name));
          snaps.add(s);
          minFlushed = Math.min(minFlushed, s.flushedLsn());
        }
        LogScan.read(partitionLog(dir, cfg.store(), p), minFlushed).replay(Integer.MAX_VALUE, 0,
            minFlushed, (lsn, op) -> {
              int t = op.key()[0] & 0xFF;
              if (t < snaps.size()) {
                snaps.get(t).apply(lsn, Arrays.copyOfRange(op.key(), 1, op.key().length),
                    op.value());
              }
            });
        tally.checkPartition(p, cfg.partitions(), t -> snaps.get(t).scan());
      } catch (IOException | RuntimeException e) {
        faults.add(dir.resolve("p" + p) + ": the indexes of partition " + p + " cannot be read"
            + " for the agreement check: " + e.getMessage());
      } finally {
        snaps.forEach(TreeSnapshot::close);
      }
    }
    return tally.report();
  }
}
