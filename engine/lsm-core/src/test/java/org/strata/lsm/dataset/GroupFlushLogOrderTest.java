package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.wal.LogScan;

/**
 * A dataset partition's indexes share one log, and each flushes its own sealed memory component.
 * Whenever a flush of one index is durably listed (the moment a kill at {@code log-truncation}
 * catches), the log's files must hold every operation up to each index's flushed sequence number:
 * otherwise a kill loses from the log operations the flushed index keeps, and the other indexes,
 * which replay them from the log, disagree with it. That happened when the group sealed its trees
 * before rolling the log: a flush that started between the two found no roll to carry out and
 * wrote a component whose last operations were only in the log's buffer (seen by the crash loop as
 * an index without the entries of a record the primary held). Concurrent writers under {@code
 * group} durability and small memory components make many seals; at every {@code log-truncation}
 * the test reads the log's files and the indexes' manifests.
 */
class GroupFlushLogOrderTest {
  private static final Pattern FLUSHED = Pattern.compile("\"flushedLsn\"\\s*:\\s*(\\d+)");

  @TempDir Path tmp;

  @Test
  void everyFlushedOperationIsInTheLogWhenAFlushIsListed() throws Exception {
    Path dir = tmp.resolve("ds");
    Path partition = dir.resolve("p0");
    List<String> violations = new CopyOnWriteArrayList<>();
    AtomicLong checks = new AtomicLong();
    AtomicReference<Boolean> open = new AtomicReference<>(false);
    StoreEnvironment env = StoreEnvironment.standard().withCrashPoints(point -> {
      if (point == CrashPoint.LOG_TRUNCATION && open.get()) {
        check(partition, violations);
        checks.incrementAndGet();
      }
    });
    DatasetConfig cfg = DatasetModelTest.config(SecondaryMaintenance.EAGER, 1);
    cfg = new DatasetConfig(cfg.store().withDurability(Durability.GROUP), cfg.secondaryIndexes(),
        cfg.maintenance(), cfg.partitions());
    try (Dataset ds = Dataset.open(dir, cfg, env)) {
      open.set(true);
      Thread[] writers = new Thread[2];
      AtomicReference<Throwable> failure = new AtomicReference<>();
      for (int w = 0; w < writers.length; w++) {
        SplittableRandom r = new SplittableRandom(17 + w);
        writers[w] = new Thread(() -> {
          try {
            for (int i = 0; i < 4000; i++) {
              String key = String.format("k%03d", r.nextInt(200));
              ds.upsert(key, Map.of("f1", "v" + r.nextInt(5), "f2", "w" + r.nextInt(5),
                  "pad", "x".repeat(40)));
            }
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
          }
        }, "group-order-writer-" + w);
        writers[w].start();
      }
      for (Thread t : writers) {
        t.join();
      }
      open.set(false);
      assertThat(failure.get()).isNull();
    }
    assertThat(checks.get()).as("flushes were listed during the writes").isGreaterThan(20);
    assertThat(violations).as("an index's flushed operations missing from the log").isEmpty();
  }

  /** Compares the log's files with each index's manifest. Runs in a flush thread. */
  private static void check(Path partition, List<String> violations) {
    long lastOnDisk;
    try {
      AtomicLong last = new AtomicLong();
      // Read-only: the partition's log is open (and holds its directory's lock).
      LogScan scan = LogScan.read(partition.resolve("wal"), 0);
      scan.replay(scan.segments().size(), 0, 0, (lsn, op) -> last.set(lsn));
      lastOnDisk = last.get();
    } catch (IOException | StorageException e) {
      return; // a segment deleted by a concurrent truncation while it was read: skip this check
    }
    try (var dirs = Files.list(partition)) {
      for (Path tree : (Iterable<Path>) dirs::iterator) {
        Path manifest = tree.resolve("MANIFEST");
        if (!Files.isRegularFile(manifest)) {
          continue;
        }
        Matcher m = FLUSHED.matcher(Files.readString(manifest));
        if (m.find() && Long.parseLong(m.group(1)) > lastOnDisk) {
          violations.add(tree.getFileName() + " lists operations up to " + m.group(1)
              + " as flushed, the log's files end at " + lastOnDisk);
        }
      }
    } catch (IOException e) {
      // a manifest replaced while it was read: skip this check
    }
  }
}
