package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Durability;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.testing.FaultInjectingFileIo;
import org.strata.lsm.testing.FileOp;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.testing.TestStores;

/**
 * A dataset partition's log belongs to that partition: a partition log swapped with, or copied
 * over, another partition's is refused at open (once, it was replayed into the wrong partition,
 * and records that exist read as not found). And under group commit a full disk keeps what was
 * acknowledged: a clean close after the disk has room again writes it (once, a failed group
 * commit dropped the records it was writing).
 */
class DatasetLogIdentityTest {
  private static final int KEYS = 300;

  @TempDir Path tmp;

  private static DatasetConfig config(Durability d) {
    StoreConfig small =
        TestStores.smallConfig(100).withMemoryComponent(MemoryComponentConfig.of(8 << 20, 2));
    return new DatasetConfig(small.withLog(small.log().withDurability(d)),
        List.of(new SecondaryIndexSpec("by_f1", "f1")), SecondaryMaintenance.EAGER, 2);
  }

  private static String key(int i) {
    return String.format("key%04d", i);
  }

  /** A crash image of a two-partition dataset holding {@link #KEYS} synced, unflushed upserts. */
  private Path crashImage() throws Exception {
    Path dir = tmp.resolve("ds");
    Path image = tmp.resolve("image");
    try (Dataset ds = Dataset.open(dir, config(Durability.SYNC))) {
      for (int i = 0; i < KEYS; i++) {
        ds.upsert(key(i), Map.of("f1", "v" + (i % 5)));
      }
      ds.sync();
      LogImages.copyTree(dir, image);
    }
    return image;
  }

  private static Path newestSegment(Path logDir) throws Exception {
    return LogImages.newestSegment(logDir);
  }

  @Test
  void partitionLogsSwappedOrCopiedOverEachOtherAreRefused() throws Exception {
    Path image = crashImage();
    Path swapped = tmp.resolve("swapped");
    LogImages.copyTree(image, swapped);
    Path w0 = swapped.resolve("p0").resolve("wal");
    Path w1 = swapped.resolve("p1").resolve("wal");
    Path t = swapped.resolve("t");
    Files.move(w0, t);
    Files.move(w1, w0);
    Files.move(t, w1);
    Map<String, String> before = LogImages.snapshot(swapped);
    assertThatThrownBy(() -> Dataset.open(swapped, null)).isInstanceOf(CorruptionException.class)
        .hasMessageContaining(w0.toString()).hasMessageContaining("not this one");
    assertThat(LogImages.snapshot(swapped)).as("a refused open changes nothing")
        .isEqualTo(before);
    assertThat(DatasetVerifier.verifyFiles(swapped).faults()).isNotEmpty();

    // One partition's segment copied over the other's (the catalogues stay).
    Path copied = tmp.resolve("copied");
    LogImages.copyTree(image, copied);
    Path s0 = newestSegment(copied.resolve("p0").resolve("wal"));
    Path s1 = newestSegment(copied.resolve("p1").resolve("wal"));
    Files.copy(s1, s0, StandardCopyOption.REPLACE_EXISTING);
    assertThatThrownBy(() -> Dataset.open(copied, null)).isInstanceOf(CorruptionException.class)
        .hasMessageContaining(s0.getFileName().toString());
    assertThat(DatasetVerifier.verifyFiles(copied).faults()).isNotEmpty();

    // The untouched image has every record.
    try (Dataset ds = Dataset.open(image, null)) {
      for (int i = 0; i < KEYS; i++) {
        assertThat(ds.get(key(i))).as(key(i)).isPresent();
      }
    }
  }

  @Test
  void underGroupCommitAFullDiskThenACleanCloseKeepsEveryAcknowledgedRecord() throws Exception {
    Path dir = tmp.resolve("g");
    FaultInjectingFileIo io = new FaultInjectingFileIo();
    List<Integer> acked = new ArrayList<>();
    Dataset ds = Dataset.open(dir, config(Durability.GROUP), new StoreEnvironment(Clock.system(),
        io));
    try {
      for (int i = 0; i < 100; i++) {
        ds.upsert(key(i), Map.of("f1", "v" + i));
        acked.add(i);
      }
      ds.sync();
      io.failMatching(Pattern.compile("wal-.*\\.log"), EnumSet.of(FileOp.WRITE),
          FaultInjectingFileIo.Failure.ENOSPC);
      int refused = 0;
      for (int i = 100; i < 2000 && refused < 5; i++) {
        try {
          ds.upsert(key(i), Map.of("f1", "v" + i));
          acked.add(i);
          if (i % 50 == 0) {
            Thread.sleep(30); // group commits run, and fail
          }
        } catch (RuntimeException e) {
          assertThat(e.getMessage()).contains("No space left on device");
          refused++;
        }
      }
      assertThat(refused).as("writes refused once a write-out failed").isPositive();
      assertThat(acked).hasSizeGreaterThan(100);
      io.heal();
    } finally {
      ds.close();
    }
    try (Dataset reopened = Dataset.open(dir, null)) {
      List<Integer> lost = new ArrayList<>();
      for (int i : acked) {
        if (reopened.get(key(i)).isEmpty()) {
          lost.add(i);
        }
      }
      assertThat(lost).as("acknowledged records lost (of %d)", acked.size()).isEmpty();
      assertThat(reopened.verify().faults()).isEmpty();
    }
    try (Stream<Path> s = Files.list(dir)) {
      assertThat(s).isNotEmpty();
    }
  }
}
