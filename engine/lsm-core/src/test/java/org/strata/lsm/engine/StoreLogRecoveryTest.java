package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.strata.lsm.testing.TestStores.b;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
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
 * A standalone store whose newest log segment has one flipped byte with acknowledged, synced
 * records after it (the image a crash leaves, then bit rot): what each recovery mode does, and what
 * a second open does after it.
 */
class StoreLogRecoveryTest {
  private static final int KEYS = 200;
  private static final int FLIPPED = 80;

  @TempDir Path tmp;

  private static final StoreConfig CONFIG = TestStores.smallConfig(100)
      .withMemoryComponent(MemoryComponentConfig.of(8 << 20, 2))
      .withDurability(Durability.SYNC);

  private static String key(int i) {
    return String.format("key%04d", i);
  }

  private static String value(int i) {
    return "value-" + i;
  }

  /** A crash image of a store holding {@link #KEYS} synced, unflushed puts, one record each. */
  private Path crashImage() throws Exception {
    Path dir = tmp.resolve("store");
    Path image = tmp.resolve("image");
    try (LsmStore store = LsmStore.open(dir, CONFIG)) {
      for (int i = 0; i < KEYS; i++) {
        store.put(b(key(i)), b(value(i)));
      }
      store.sync();
      LogImages.copyTree(dir, image);
    }
    return image;
  }

  private static List<Integer> present(LsmStore store) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      byte[] want = b(value(i));
      if (store.get(b(key(i))).map(v -> Arrays.equals(v, want)).orElse(false)) {
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

  @Test
  void aFlippedByteWithIntactRecordsAfterItIsRefusedByDefaultAndByAbsoluteConsistency()
      throws Exception {
    Path image = crashImage();
    Path seg = LogImages.newestSegment(image.resolve("wal"));
    LogImages.flipInside(seg, key(FLIPPED));
    Map<String, String> before = LogImages.snapshot(image);
    assertThatThrownBy(() -> LsmStore.open(image, null))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(seg.toString())
        .hasMessageContaining("at offset ")
        .hasMessageContaining((KEYS - FLIPPED - 1) + " intact records")
        .hasMessageContaining("skip-corrupted")
        .hasMessageContaining("point-in-time");
    assertThat(LogImages.snapshot(image)).as("a refused open writes nothing").isEqualTo(before);
    assertThatThrownBy(() -> LsmStore.open(image,
        CONFIG.withLog(CONFIG.log().withRecoveryMode(LogRecoveryMode.ABSOLUTE_CONSISTENCY))))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(seg.getFileName().toString());
    assertThat(LogImages.snapshot(image)).as("not even the given configuration is saved")
        .isEqualTo(before);
  }

  @Test
  void skipCorruptedLosesOnlyTheFlippedRecordAndASecondOpenIsClean() throws Exception {
    Path image = crashImage();
    LogImages.flipInside(LogImages.newestSegment(image.resolve("wal")), key(FLIPPED));
    List<Integer> want = range(0, KEYS);
    want.remove(Integer.valueOf(FLIPPED));
    Path crashAgain = tmp.resolve("again");
    try (LsmStore store = LsmStore.open(image,
        CONFIG.withLog(CONFIG.log().withRecoveryMode(LogRecoveryMode.SKIP_CORRUPTED)))) {
      assertThat(present(store)).isEqualTo(want);
      store.put(b("new"), b("write"));
      store.sync();
      LogImages.copyTree(image, crashAgain);
    }
    // A crash before any flush leaves the bad bytes in the log: the default refuses again, and
    // skip-corrupted again recovers the same plus the new write.
    assertThatThrownBy(() -> LsmStore.open(crashAgain, CONFIG))
        .isInstanceOf(CorruptionException.class);
    try (LsmStore store = LsmStore.open(crashAgain,
        CONFIG.withLog(CONFIG.log().withRecoveryMode(LogRecoveryMode.SKIP_CORRUPTED)))) {
      assertThat(present(store)).isEqualTo(want);
      assertThat(store.get(b("new"))).hasValue(b("write"));
    }
    // The clean close flushed everything and dropped the damaged segment: the default opens.
    try (LsmStore store = LsmStore.open(image, CONFIG)) {
      assertThat(present(store)).isEqualTo(want);
      assertThat(store.get(b("new"))).hasValue(b("write"));
    }
  }

  @Test
  void pointInTimeReplaysUpToTheFlipSetsTheRestAsideAndLaterWritesSurvive() throws Exception {
    Path image = crashImage();
    Path logDir = image.resolve("wal");
    Path seg = LogImages.newestSegment(logDir);
    byte[] original = Files.readAllBytes(seg);
    LogImages.flipInside(seg, key(FLIPPED));
    Path crashAgain = tmp.resolve("again");
    try (LsmStore store = LsmStore.open(image,
        CONFIG.withLog(CONFIG.log().withRecoveryMode(LogRecoveryMode.POINT_IN_TIME)))) {
      assertThat(present(store)).isEqualTo(range(0, FLIPPED));
      store.put(b(key(FLIPPED + 1)), b("rewritten"));
      store.sync();
      LogImages.copyTree(image, crashAgain);
    }
    // The bytes from the bad record on are kept beside the log, never deleted.
    List<Path> setAside;
    try (Stream<Path> s = Files.list(logDir)) {
      setAside = s.filter(p -> p.getFileName().toString().startsWith(seg.getFileName()
          + ".corrupt-")).toList();
    }
    assertThat(setAside).hasSize(1);
    int offset = Integer.parseInt(setAside.get(0).getFileName().toString()
        .substring((seg.getFileName() + ".corrupt-").length()));
    byte[] kept = Files.readAllBytes(setAside.get(0));
    assertThat(kept.length).isEqualTo(original.length - offset);
    int differing = 0;
    for (int i = 0; i < kept.length; i++) {
      differing += kept[i] != original[offset + i] ? 1 : 0;
    }
    assertThat(differing).as("the set-aside bytes are the original ones but the flip").isOne();

    // A second open after a crash, in the default mode: clean, with the write made after recovery
    // (its sequence number is above every set-aside record, so nothing can shadow it).
    for (Path p : List.of(crashAgain, image)) {
      try (LsmStore store = LsmStore.open(p, CONFIG)) {
        List<Integer> want = range(0, FLIPPED);
        assertThat(present(store)).isEqualTo(want);
        assertThat(store.get(b(key(FLIPPED + 1)))).hasValue(b("rewritten"));
      }
    }
  }

  @Test
  void aTornTailIsStillCutAndTheStoreOpens() throws Exception {
    Path image = crashImage();
    Path seg = LogImages.newestSegment(image.resolve("wal"));
    long size = Files.size(seg);
    // Each put was synced, and each force is followed by a force mark: the file ends with the
    // last put's record and its mark. Cutting into the mark loses nothing.
    Path cutMark = tmp.resolve("cut-mark");
    LogImages.copyTree(image, cutMark);
    Path segCopy = LogImages.newestSegment(cutMark.resolve("wal"));
    try (FileChannel ch = FileChannel.open(segCopy, StandardOpenOption.WRITE)) {
      ch.truncate(size - 4);
    }
    try (LsmStore store = LsmStore.open(cutMark, null)) {
      assertThat(present(store)).isEqualTo(range(0, KEYS));
    }
    // Cutting into the last record (with its mark gone, nothing says it was forced) is the torn
    // write of a crash before the put returned: that put alone is lost.
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(size - WriteAheadLog.FORCE_MARK_BYTES - 4);
    }
    Files.write(seg, new byte[512], StandardOpenOption.APPEND); // and zeros after it
    try (LsmStore store = LsmStore.open(image, null)) {
      assertThat(present(store)).isEqualTo(range(0, KEYS - 1));
    }
  }
}
