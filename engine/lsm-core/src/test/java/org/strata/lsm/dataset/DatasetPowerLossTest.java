package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.CrashPoint;
import org.strata.lsm.testing.PowerLossFileIo;

/**
 * A dataset's indexes agree after a machine crash under {@code none}, not only after a process
 * kill. The indexes of a partition share one log, and each flushes its own memory component; a
 * write whose entry one index has flushed must stay in the log for the indexes that still hold it
 * in memory. Under {@code none} the log was only written out, not forced, before a flush, so a
 * power loss right after one index's flush was listed kept that index's entries and took the
 * others' from the log. The test copies the dataset as a power loss would leave it ({@link
 * PowerLossFileIo}: only forced bytes) at the moments a kill at {@code log-truncation} catches (a
 * flush of one index durably listed), then opens each copy and checks the indexes agree.
 */
class DatasetPowerLossTest {
  private static final int IMAGES = 12;

  @TempDir Path tmp;

  @Test
  void indexesAgreeAfterAPowerLossWhenAFlushIsListedUnderNone() throws Exception {
    Path dir = tmp.resolve("ds");
    PowerLossFileIo io = new PowerLossFileIo();
    AtomicBoolean open = new AtomicBoolean();
    AtomicInteger flushes = new AtomicInteger();
    List<Path> images = new CopyOnWriteArrayList<>();
    List<Throwable> imageErrors = new CopyOnWriteArrayList<>();
    StoreEnvironment env = new StoreEnvironment(Clock.system(), io).withCrashPoints(point -> {
      // Every third listed flush, so the copies spread over the run.
      if (point == CrashPoint.LOG_TRUNCATION && open.get() && images.size() < IMAGES
          && flushes.incrementAndGet() % 3 == 1) {
        Path image = tmp.resolve("image-" + images.size());
        try {
          io.image(dir, image);
          images.add(image);
        } catch (IOException e) {
          imageErrors.add(e);
        }
      }
    });
    // Durability none. No merges: a partition's flushes run one at a time on its flush thread,
    // where the copy is taken, so nothing but the log changes while it is copied and the copy is
    // one moment, as a power loss is.
    DatasetConfig base = DatasetModelTest.config(SecondaryMaintenance.EAGER, 1);
    DatasetConfig cfg = new DatasetConfig(base.store().withMergePolicy(
        new NamedPlugin("test-merge-all", Map.of("max", "1000"))), base.secondaryIndexes(),
            base.maintenance(),
        base.partitions());
    try (Dataset ds = Dataset.open(dir, cfg, env)) {
      open.set(true);
      Thread[] writers = new Thread[2];
      AtomicReference<Throwable> failure = new AtomicReference<>();
      for (int w = 0; w < writers.length; w++) {
        SplittableRandom r = new SplittableRandom(29 + w);
        writers[w] = new Thread(() -> {
          try {
            for (int i = 0; i < 3000 && images.size() < IMAGES; i++) {
              String key = String.format("k%03d", r.nextInt(200));
              ds.upsert(key, Map.of("f1", "v" + r.nextInt(5), "f2", "w" + r.nextInt(5),
                  "pad", "x".repeat(40)));
            }
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
          }
        }, "power-loss-writer-" + w);
        writers[w].start();
      }
      for (Thread t : writers) {
        t.join();
      }
      open.set(false);
      assertThat(failure.get()).isNull();
    }
    assertThat(imageErrors).isEmpty();
    assertThat(images).as("flushes were listed during the writes").hasSizeGreaterThan(3);
    for (Path image : images) {
      try (Dataset ds = Dataset.open(image, cfg)) {
        DatasetVerifier.Report report = ds.verify();
        assertThat(report.faults()).as("the indexes of %s, as a power loss left them",
            image.getFileName()).isEmpty();
        assertThat(report.staleEntries().values()).allMatch(n -> n == 0);
        assertThat(report.records()).isPositive();
      }
    }
  }
}
