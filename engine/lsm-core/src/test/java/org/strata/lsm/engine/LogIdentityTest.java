package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.strata.lsm.testing.TestStores.b;
import static org.strata.lsm.testing.TestStores.s;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Durability;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StrataException;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.testing.FaultInjectingFileIo;
import org.strata.lsm.testing.FileOp;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.testing.TestStores;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * The ways a store's log or component files can be mixed up, each of which once lost acknowledged
 * writes or served wrong data silently (an adversarial probe found them): a relative or empty
 * {@code log.dir}, two stores given one log directory, a configuration naming a new {@code
 * log.dir} while the old log holds unflushed writes, a flipped byte in the last forced record,
 * swapped or duplicated component files, a removed manifest, and a full disk under group commit.
 * A store is "killed" here with {@link Store#abandon()}, which lets go of every file without a
 * flush, a manifest or a log force beyond what the writes themselves did.
 */
class LogIdentityTest {
  @TempDir Path tmp;

  private static StoreConfig sync() {
    return TestStores.smallConfig(100).withMemoryComponent(MemoryComponentConfig.of(8 << 20, 2))
        .withDurability(Durability.SYNC);
  }

  private static StoreConfig withLogDir(StoreConfig c, String dir) {
    return c.withLog(c.log().withDir(dir));
  }

  /** Writes keys {@code prefix0..prefix(n-1)}, each synced, and kills the store. */
  private static void writeAndKill(Path dir, StoreConfig config, String prefix, int n) {
    Store t = Store.open(dir, config, StoreEnvironment.standard());
    for (int i = 0; i < n; i++) {
      t.put(b(prefix + i), b("v" + i));
    }
    t.abandon();
  }

  private static int count(LsmStore s, String prefix, int n) {
    int found = 0;
    for (int i = 0; i < n; i++) {
      if (s.get(b(prefix + i)).map(v -> v.length > 0).orElse(false)) {
        found++;
      }
    }
    return found;
  }

  @Test
  void aRelativeLogDirIsTheStoresNotTheWorkingDirectorysAndAnEmptyOneIsRefused()
      throws Exception {
    Path store = tmp.resolve("s");
    String rel = "relwal-" + ProcessHandle.current().pid();
    writeAndKill(store, withLogDir(sync(), rel), "k", 50);
    assertThat(Path.of(rel)).as("nothing in the working directory").doesNotExist();
    assertThat(store.resolve(rel).resolve(LogCatalogFile.NAME)).exists();
    String saved = Files.readString(store.resolve("config.json"));
    assertThat(saved).as("saved absolute").contains(store.resolve(rel).toAbsolutePath()
        .toString());
    try (LsmStore s = LsmStore.open(store, null)) {
      assertThat(count(s, "k", 50)).isEqualTo(50);
    }
    assertThatThrownBy(() -> LsmStore.open(tmp.resolve("e"), withLogDir(sync(), "")))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("log.dir");
    assertThat(tmp.resolve("e")).doesNotExist();
  }

  @Test
  void twoStoresGivenOneLogDirectoryNeverTakeEachOthersLog() throws Exception {
    String shared = tmp.resolve("sharedwal").toString();
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    try (LsmStore sa = LsmStore.open(a, withLogDir(sync(), shared))) {
      sa.put(b("x"), b("1"));
      assertThatThrownBy(() -> LsmStore.open(b, withLogDir(sync(), shared)))
          .as("while a has it open").isInstanceOf(StrataException.class)
          .hasMessageContaining(shared).hasMessageContaining("in use");
    }
    assertThat(b).doesNotExist();
    writeAndKill(a, withLogDir(sync(), shared), "a", 200);
    assertThatThrownBy(() -> LsmStore.open(b, withLogDir(sync(), shared)))
        .as("a was killed with 200 writes in the log").isInstanceOf(CorruptionException.class)
        .hasMessageContaining(a.toAbsolutePath().toString())
        .hasMessageContaining("give each store");
    assertThat(b).doesNotExist();
    try (LsmStore s = LsmStore.open(a, null)) {
      assertThat(count(s, "a", 200)).isEqualTo(200);
      assertThat(s.get(b("x")).map(v -> s(v))).contains("1");
    }
  }

  @Test
  void aNewLogDirIsRefusedWhileTheOldLogHoldsUnflushedWritesAndTakenOnceItDoesNot()
      throws Exception {
    Path store = tmp.resolve("s");
    String oldDir = tmp.resolve("wal1").toString();
    String newDir = tmp.resolve("wal2").toString();
    writeAndKill(store, withLogDir(sync(), oldDir), "k", 145);
    assertThatThrownBy(() -> LsmStore.open(store, withLogDir(sync(), newDir)))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining(oldDir)
        .hasMessageContaining(newDir).hasMessageContaining("145 operations");
    assertThat(Path.of(newDir)).as("a refused open creates nothing").doesNotExist();
    // The saved configuration, edited by hand to name another directory, is refused too.
    Path config = store.resolve("config.json");
    String saved = Files.readString(config);
    Files.writeString(config, saved.replace(oldDir, newDir));
    assertThatThrownBy(() -> LsmStore.open(store, null))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining(config.toString()).hasMessageContaining(oldDir);
    Files.writeString(config, saved);
    // Opened where the log is, the writes are there; a clean close flushes them.
    try (LsmStore s = LsmStore.open(store, withLogDir(sync(), oldDir))) {
      assertThat(count(s, "k", 145)).isEqualTo(145);
    }
    // Now the log can move: the new directory gets a new log, the old one is removed.
    try (LsmStore s = LsmStore.open(store, withLogDir(sync(), newDir))) {
      assertThat(count(s, "k", 145)).isEqualTo(145);
      s.put(b("after"), b("1"));
    }
    try (Stream<Path> files = Files.list(Path.of(oldDir))) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.startsWith("wal-") || n.equals("CATALOG"));
    }
    try (LsmStore s = LsmStore.open(store, null)) {
      assertThat(s.get(b("after"))).isPresent();
    }
    // A log whose files the user moved: the store follows it to the configured directory.
    writeAndKill(store, null, "m", 30);
    Path third = tmp.resolve("wal3");
    Files.move(Path.of(newDir), third);
    try (LsmStore s = LsmStore.open(store, withLogDir(sync(), third.toString()))) {
      assertThat(count(s, "m", 30)).isEqualTo(30);
    }
  }

  @Test
  void aFlippedByteInTheLastForcedRecordIsCorruptionNotATornTail() throws Exception {
    Path store = tmp.resolve("s");
    writeAndKill(store, sync(), "k", 20);
    Path seg = LogImages.newestSegment(store.resolve("wal"));
    byte[] data = Files.readAllBytes(seg);
    // The file ends with the last put's record, then its force mark; flip a byte of the record.
    int at = data.length - WriteAheadLog.FORCE_MARK_BYTES - 5;
    data[at] ^= 0x04;
    Files.write(seg, data);
    StoreVerifier.VerifyReport v = StoreVerifier.verify(store);
    assertThat(v.ok()).as("verify: %s", v).isFalse();
    assertThat(String.join("\n", v.faults())).contains(seg.getFileName().toString())
        .contains("forced");
    assertThatThrownBy(() -> LsmStore.open(store, null)).isInstanceOf(CorruptionException.class)
        .hasMessageContaining(seg.toString()).hasMessageContaining("forced");
    try (LsmStore s = LsmStore.open(store, sync().withLog(sync().log()
        .withRecoveryMode(LogRecoveryMode.SKIP_CORRUPTED)))) {
      assertThat(count(s, "k", 20)).as("skip-corrupted loses that one write").isEqualTo(19);
    }
  }

  /** Merges only past 100 components: the three flushes here stay three components. */
  private static StoreConfig noMerge() {
    return TestStores.smallConfig(100);
  }

  /** A store of three components: 0-99 (v1), then 0-49 (v2), then 0-24 deleted. */
  private Path threeComponents() {
    Path store = tmp.resolve("c");
    try (LsmStore s = LsmStore.open(store, noMerge())) {
      for (int i = 0; i < 100; i++) {
        s.put(b("k" + i), b("v1-" + i));
      }
      s.flush();
      for (int i = 0; i < 50; i++) {
        s.put(b("k" + i), b("v2-" + i));
      }
      s.flush();
      for (int i = 0; i < 25; i++) {
        s.delete(b("k" + i));
      }
      s.flush();
    }
    return store;
  }

  private static List<Path> components(Path store) throws Exception {
    try (Stream<Path> s = Files.list(store)) {
      return s.filter(p -> p.toString().endsWith(".cmp")).sorted().toList();
    }
  }

  @Test
  void swappedOrDuplicatedComponentFilesAreRefusedNamingTheFile() throws Exception {
    Path store = threeComponents();
    List<Path> cs = components(store);
    assertThat(cs).hasSize(3);
    Path image = tmp.resolve("image");
    LogImages.copyTree(store, image);
    // Swap the oldest and the newest.
    Path first = cs.get(0);
    Path last = cs.get(2);
    Path t = store.resolve("t");
    Files.move(first, t);
    Files.move(last, first);
    Files.move(t, last);
    StoreVerifier.VerifyReport v = StoreVerifier.verify(store);
    assertThat(v.ok()).isFalse();
    assertThat(String.join("\n", v.faults())).contains(first.getFileName().toString())
        .contains("not the component the manifest lists");
    assertThatThrownBy(() -> LsmStore.open(store, null)).isInstanceOf(CorruptionException.class)
        .hasMessageContaining("not the component the manifest lists");
    // One copied over another.
    Path copy = tmp.resolve("copy");
    LogImages.copyTree(image, copy);
    List<Path> cc = components(copy);
    Files.copy(cc.get(0), cc.get(1), StandardCopyOption.REPLACE_EXISTING);
    assertThat(StoreVerifier.verify(copy).ok()).isFalse();
    assertThatThrownBy(() -> LsmStore.open(copy, null)).isInstanceOf(CorruptionException.class)
        .hasMessageContaining(cc.get(1).getFileName().toString());
    // The untouched image reads right.
    try (LsmStore s = LsmStore.open(image, null)) {
      assertThat(s.get(b("k10"))).isEmpty();
      assertThat(s.get(b("k30")).map(x -> s(x))).contains("v2-30");
      assertThat(s.get(b("k70")).map(x -> s(x))).contains("v1-70");
    }
  }

  @Test
  void aStoreWhoseManifestWasRemovedIsRefusedAndKeepsItsComponents() throws Exception {
    Path store = threeComponents();
    Files.delete(store.resolve(Manifest.FILE));
    assertThatThrownBy(() -> LsmStore.open(store, null)).isInstanceOf(CorruptionException.class)
        .hasMessageContaining("MANIFEST").hasMessageContaining("3 component file(s)");
    assertThat(components(store)).hasSize(3);
  }

  @Test
  void underGroupCommitAFailedWriteOutKeepsAcknowledgedWritesAndACloseWritesThem()
      throws Exception {
    Path store = tmp.resolve("g");
    FaultInjectingFileIo io = new FaultInjectingFileIo();
    StoreEnvironment env = new StoreEnvironment(Clock.system(), io);
    StoreConfig group = TestStores.smallConfig(100).withMemoryComponent(
        MemoryComponentConfig.of(8 << 20, 2)).withDurability(Durability.GROUP);
    List<Integer> acked = new ArrayList<>();
    Store t = Store.open(store, group, env);
    boolean closed = false;
    try {
      for (int i = 0; i < 100; i++) {
        t.put(b("k" + i), b("v" + i));
        acked.add(i);
      }
      t.sync();
      // The disk fills: every write to a log segment fails from now on.
      io.failMatching(Pattern.compile("wal-.*\\.log"), java.util.EnumSet.of(FileOp.WRITE),
          FaultInjectingFileIo.Failure.ENOSPC);
      int refused = 0;
      for (int i = 100; i < 400 && refused == 0; i++) {
        try {
          t.put(b("k" + i), b("v" + i));
          acked.add(i); // under group, an applied write is acknowledged
          if (i % 50 == 0) {
            Thread.sleep(30); // group commits happen, and fail
          }
        } catch (RuntimeException e) {
          assertThat(e.getMessage()).contains("No space left on device");
          refused++;
        }
      }
      assertThat(refused).as("writes are refused once a write-out failed").isPositive();
      assertThat(acked.size()).as("some writes were acknowledged after the last force")
          .isGreaterThan(100);
      io.heal(); // room again
      t.close(); // a clean stop: every acknowledged write is made durable
      closed = true;
    } finally {
      if (!closed) {
        t.abandon();
      }
    }
    try (LsmStore s = LsmStore.open(store, null)) {
      List<Integer> lost = new ArrayList<>();
      for (int i : acked) {
        if (s.get(b("k" + i)).isEmpty()) {
          lost.add(i);
        }
      }
      assertThat(lost).as("acknowledged writes lost (of %d)", acked.size()).isEmpty();
    }
  }

  /** The name of the log's catalogue file, for the assertions above. */
  private static final class LogCatalogFile {
    static final String NAME = org.strata.lsm.wal.LogCatalog.FILE;
  }

  static byte[] utf8(String x) {
    return x.getBytes(StandardCharsets.UTF_8);
  }
}
