package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.wal.WriteAheadLog;
import org.strata.lsm.testing.TestStores;

/**
 * The shared log of a dataset partition under each recovery mode: one flipped byte with intact
 * records after it in the newest segment of the partition log. One log record holds a write to the
 * primary and its secondary index, so whatever a mode replays or skips, the indexes agree.
 */
class DatasetLogRecoveryTest {
  private static final int KEYS = 150;
  private static final int FLIPPED = 60;

  @TempDir Path tmp;

  private static DatasetConfig config(LogRecoveryMode mode) {
    StoreConfig small =
        TestStores.smallConfig(100).withMemoryComponent(MemoryComponentConfig.of(8 << 20, 2));
    StoreConfig store =
        small.withLog(small.log().withDurability(Durability.SYNC).withRecoveryMode(mode));
    return new DatasetConfig(store, List.of(new SecondaryIndexSpec("by_f1", "f1")),
        SecondaryMaintenance.EAGER, 1);
  }

  private static String key(int i) {
    return String.format("key%04d", i);
  }

  private Path crashImage() throws Exception {
    Path dir = tmp.resolve("ds");
    Path image = tmp.resolve("image");
    try (Dataset ds = Dataset.open(dir, config(LogRecoveryMode.TOLERATE_TORN_TAIL))) {
      for (int i = 0; i < KEYS; i++) {
        ds.upsert(key(i), Map.of("f1", "v" + (i % 5)));
      }
      ds.sync();
      LogImages.copyTree(dir, image);
    }
    return image;
  }

  private static List<Integer> present(Dataset ds) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      if (ds.get(key(i)).isPresent()) {
        out.add(i);
      }
    }
    return out;
  }

  private static List<Integer> range(int from, int to) {
    List<Integer> l = new ArrayList<>();
    for (int i = from; i < to; i++) {
      l.add(i);
    }
    return l;
  }

  private static void assertIndexesAgree(Dataset ds, List<Integer> present) {
    assertThat(ds.verify().faults()).isEmpty();
    long v0 = present.stream().filter(i -> i % 5 == 0).count();
    assertThat(ds.queryEq("by_f1", "v0")).hasSize((int) v0);
  }

  @Test
  void refusedByDefaultAndByAbsoluteConsistencyWritingNothing() throws Exception {
    Path image = crashImage();
    Path seg = LogImages.newestSegment(image.resolve("p0").resolve("wal"));
    LogImages.flipInside(seg, key(FLIPPED));
    Map<String, String> before = LogImages.snapshot(image);
    assertThatThrownBy(() -> Dataset.open(image, null))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(seg.toString())
        .hasMessageContaining((KEYS - FLIPPED - 1) + " intact records")
        .hasMessageContaining("skip-corrupted");
    assertThat(LogImages.snapshot(image)).isEqualTo(before);
    assertThatThrownBy(() -> Dataset.open(image,
        config(LogRecoveryMode.ABSOLUTE_CONSISTENCY)))
        .isInstanceOf(CorruptionException.class);
    assertThat(LogImages.snapshot(image)).isEqualTo(before);
  }

  @Test
  void skipCorruptedLosesOnlyTheFlippedWriteInEveryIndex() throws Exception {
    Path image = crashImage();
    LogImages.flipInside(
        LogImages.newestSegment(image.resolve("p0").resolve("wal")),
        key(FLIPPED));
    List<Integer> want = range(0, KEYS);
    want.remove(Integer.valueOf(FLIPPED));
    try (Dataset ds = Dataset.open(image, config(LogRecoveryMode.SKIP_CORRUPTED))) {
      assertThat(present(ds)).isEqualTo(want);
      assertIndexesAgree(ds, want);
    }
    try (Dataset ds = Dataset.open(image, config(LogRecoveryMode.TOLERATE_TORN_TAIL))) {
      assertThat(present(ds)).isEqualTo(want);
      assertIndexesAgree(ds, want);
    }
  }

  @Test
  void pointInTimeStopsAtTheFlipAndLaterWritesSurviveACrash() throws Exception {
    Path image = crashImage();
    Path logDir = image.resolve("p0").resolve("wal");
    LogImages.flipInside(LogImages.newestSegment(logDir),
        key(FLIPPED));
    Path again = tmp.resolve("again");
    try (Dataset ds = Dataset.open(image, config(LogRecoveryMode.POINT_IN_TIME))) {
      assertThat(present(ds)).isEqualTo(range(0, FLIPPED));
      assertIndexesAgree(ds, range(0, FLIPPED));
      ds.upsert("later", Map.of("f1", "v0"));
      ds.sync();
      LogImages.copyTree(image, again);
    }
    try (Stream<Path> s = Files.list(logDir)) {
      assertThat(s.map(p -> p.getFileName().toString())).anyMatch(n -> n.contains(".corrupt-"));
    }
    for (Path p : List.of(again, image)) {
      try (Dataset ds = Dataset.open(p, config(LogRecoveryMode.TOLERATE_TORN_TAIL))) {
        assertThat(present(ds)).isEqualTo(range(0, FLIPPED));
        assertThat(ds.get("later")).isPresent();
        assertThat(ds.verify().faults()).isEmpty();
      }
    }
  }

  @Test
  void aTornTailOfThePartitionLogIsCut() throws Exception {
    Path image = crashImage();
    Path seg = LogImages.newestSegment(image.resolve("p0").resolve("wal"));
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      // Every write was synced, and each force is followed by a force mark: cut the last mark and
      // into the last record, which nothing then says was forced (a crash before it returned).
      ch.truncate(ch.size() - WriteAheadLog.FORCE_MARK_BYTES - 3);
    }
    try (Dataset ds = Dataset.open(image, null)) {
      assertThat(present(ds)).isEqualTo(range(0, KEYS - 1));
      assertIndexesAgree(ds, range(0, KEYS - 1));
    }
  }
}
