package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.SecondaryIndexSpec;
import org.strata.lsm.dataset.SecondaryMaintenance;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.wal.LogOp;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * {@code strata verify} checks every file kind, exits 1 naming the file (and offset) of each
 * fault, exits 2 for a directory that holds no store or dataset, and in every case changes and
 * creates nothing: each test compares every file under the temporary directory before and after.
 */
class VerifyCommandTest {
  private static final int KEYS = 3000;

  @TempDir Path tmp;

  private static final StoreConfig CONFIG = StoreConfig.defaults()
      .withMergePolicy(new NamedPlugin("constant", Map.of("num-components", "100")))
      .withMemoryComponent(MemoryComponentConfig.of(64 * 1024, 2))
      .withIo(IoConfig.of(0, 1 << 20, 1024))
      .withDurability(Durability.NONE); // sync() before each crash image forces the log

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A crash image of a store with several flushed components and, in its log, synced writes that
   * are not flushed yet.
   */
  private Path store() throws Exception {
    Path live = tmp.resolve("live");
    Path image = tmp.resolve("store");
    try (LsmStore s = LsmStore.open(live,
        CONFIG.withMemoryComponent(MemoryComponentConfig.of(64 * 1024, 2)))) {
      for (int i = 0; i < KEYS; i++) {
        s.put(b(String.format("key%06d", i)), b("value-" + i + "-" + "x".repeat(40)));
      }
      s.flush();
      for (int i = 0; i < 200; i++) {
        s.put(b(String.format("late%04d", i)), b("v" + i));
      }
      s.sync();
      LogImages.copyTree(live, image);
    }
    return image;
  }

  private static List<Path> files(Path dir, String suffix) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  /** Runs verify on {@code dir}, checking that nothing under the temporary directory changed. */
  private CliTest.Result verify(Path dir) throws Exception {
    Map<String, String> before = LogImages.snapshot(tmp);
    CliTest.Result r = CliTest.run("verify", "--dir", dir.toString());
    assertThat(LogImages.snapshot(tmp)).as("verify changes and creates nothing").isEqualTo(before);
    return r;
  }

  private static void flip(Path file, long offset) throws Exception {
    byte[] data = Files.readAllBytes(file);
    data[(int) offset] ^= 0x20;
    Files.write(file, data);
  }

  @Test
  void aCleanStoreWithUnflushedLogRecordsIsOk() throws Exception {
    Path dir = store();
    CliTest.Result r = verify(dir);
    assertThat(r.code()).as(r.out() + r.err()).isZero();
    // Without a lock file (no process ever had it open here), verify does not create one.
    Files.delete(dir.resolve("LOCK"));
    r = verify(dir);
    assertThat(dir.resolve("LOCK")).doesNotExist();
    assertThat(r.code()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("200 log records").endsWith("ok\n").doesNotContain("FAULT");
  }

  @Test
  void aCorruptComponentPageOrFooterIsAFaultNamingTheFileAndOffset() throws Exception {
    Path dir = store();
    Path component = files(dir, ".cmp").get(0);
    flip(component, 100);
    CliTest.Result r = verify(dir);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("FAULT: ").contains(component.toString()).contains("offset 0")
        .contains("checksum");
    Path other = files(dir, ".cmp").get(1);
    flip(other, Files.size(other) - 10);
    r = verify(dir);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains(other.toString()).contains("footer");
  }

  @Test
  void aCorruptManifestIsAFault() throws Exception {
    Path dir = store();
    Path manifest = dir.resolve("MANIFEST");
    flip(manifest, Files.size(manifest) - 20);
    CliTest.Result r = verify(dir);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("FAULT: " + manifest).contains("checksum");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"memory-component\": {\"size\": \"64KB\"",           // truncated JSON
      "{\"memory-component\": {\"size\": true}}",              // wrong type
      "{\"memory-componnet\": {\"size\": \"64KB\"}}",           // unknown key
      "{\"log\": {\"durability\": \"sometimes\"}}",            // bad value
      "",                                                      // empty file
      "{\"io\": {\"page-size\": \"4KB\", \"page-size\": \"8KB\"}}", // a key given twice
      "{\"merge-policy\": {\"name\": \"no-such-policy\"}}"     // unknown plug-in
  })
  void aCorruptConfigJsonIsAFault(String text) throws Exception {
    Path dir = store();
    Files.writeString(dir.resolve("config.json"), text);
    CliTest.Result r = verify(dir);
    assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
    assertThat(r.out()).contains("FAULT: " + dir.resolve("config.json"));
  }

  @Test
  void aFlippedByteInTheNewestLogSegmentIsAFaultNamingSegmentAndOffset() throws Exception {
    Path dir = store();
    Path seg = LogImages.newestSegment(dir.resolve("wal"));
    int at = LogImages.flipInside(seg, "late0100");
    CliTest.Result r = verify(dir);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("FAULT: " + seg + " at offset ")
        .contains("99 intact records (99 operations)");
    // The offset named is the start of the record holding the flipped byte.
    String line = r.lines().stream().filter(l -> l.startsWith("FAULT")).findFirst().orElseThrow();
    long offset = Long.parseLong(line.replaceAll(".* at offset (\\d+):.*", "$1"));
    assertThat(offset).isLessThanOrEqualTo(at).isGreaterThan(at - 40);
  }

  private static int indexOf(byte[] data, String text) {
    byte[] needle = b(text);
    for (int i = 0; i + needle.length <= data.length; i++) {
      if (java.util.Arrays.equals(data, i, i + needle.length, needle, 0, needle.length)) {
        return i;
      }
    }
    throw new AssertionError(text + " not found");
  }

  @Test
  void aCorruptRecordLengthInTheLogIsAFault() throws Exception {
    Path dir = store();
    Path seg = LogImages.newestSegment(dir.resolve("wal"));
    byte[] data = Files.readAllBytes(seg);
    // A put's record: length, CRC, first LSN, count, kind, key length, key.
    int record = indexOf(data, "late0050") - (4 + 4 + 8 + 4 + 1 + 4);
    data[record] = 0x7F; // the record now claims to run far past the end of the file
    Files.write(seg, data);
    CliTest.Result r = verify(dir);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("FAULT: " + seg + " at offset " + record + ":")
        .contains("149 intact records");
  }

  @Test
  void corruptionInAnOlderLogSegmentIsAFault() throws Exception {
    Path dir = tmp.resolve("store");
    LsmStore.open(dir, CONFIG).close();
    WriteAheadLog wal = WriteAheadLog.open(dir.resolve("wal"), Durability.SYNC, 10,
        FileIo.standard(), LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (lsn, op) -> { });
    for (int i = 0; i < 100; i++) {
      wal.append(List.of(new LogOp(b("a" + i), b("v"))));
      if (i == 49) {
        wal.roll();
      }
    }
    wal.close();
    Path older = files(dir.resolve("wal"), ".log").get(files(dir.resolve("wal"),
        ".log").size() - 2);
    LogImages.flipInside(older, "a20");
    CliTest.Result r = verify(dir);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("FAULT: " + older + " at offset ")
        .contains("79 intact records (79 operations)").contains("1 later segment(s)");
  }

  @Test
  void aTornTailIsANoteByDefaultAndAFaultUnderAbsoluteConsistency() throws Exception {
    Path dir = store();
    Path seg = LogImages.newestSegment(dir.resolve("wal"));
    Files.write(seg, new byte[] {0, 0, 1, 0, 0, 0}, StandardOpenOption.APPEND);
    CliTest.Result r = verify(dir);
    assertThat(r.code()).as(r.out()).isZero();
    assertThat(r.out()).contains("NOTE: " + seg + " at offset ").contains("torn");
    String cfg = Files.readString(dir.resolve("config.json"))
        .replace("\"tolerate-torn-tail\"", "\"absolute-consistency\"");
    Files.writeString(dir.resolve("config.json"), cfg);
    r = verify(dir);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("FAULT: " + seg).contains("absolute-consistency");
  }

  @Test
  void leftoversOfACrashAreNotesNotFaults() throws Exception {
    Path dir = store();
    Files.writeString(dir.resolve("000000009999.cmp"), "an unlisted component");
    Files.writeString(dir.resolve("MANIFEST.tmp"), "half a manifest");
    CliTest.Result r = verify(dir);
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("NOTE: " + dir.resolve("000000009999.cmp"))
        .contains("NOTE: " + dir.resolve("MANIFEST.tmp"));
  }

  @Test
  void directoriesWithoutAStoreExitTwoAndGetNoLockFile() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    CliTest.Result r = verify(empty);
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains(empty.toString()).contains("is empty");
    r = verify(tmp.resolve("missing"));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("does not exist");
    assertThat(tmp.resolve("missing")).doesNotExist();
    Path other = Files.createDirectories(tmp.resolve("other"));
    Files.writeString(other.resolve("notes.txt"), "not a store");
    r = verify(other);
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("no config.json, MANIFEST or dataset.json");
    r = verify(other.resolve("notes.txt"));
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("not a directory");
    assertThat(empty.resolve("LOCK")).doesNotExist();
  }

  @Test
  void aStoreOpenInThisProcessIsNotVerified() throws Exception {
    Path dir = tmp.resolve("open");
    try (LsmStore s = LsmStore.open(dir, CONFIG)) {
      s.put(b("k"), b("v"));
      CliTest.Result r = CliTest.run("verify", "--dir", dir.toString());
      assertThat(r.code()).isEqualTo(1);
      assertThat(r.err()).contains("is open");
    }
  }

  // ---- datasets -------------------------------------------------------------------------------

  private static DatasetConfig datasetConfig() {
    return new DatasetConfig(CONFIG.withMemoryComponent(MemoryComponentConfig.of(8 << 20, 2)),
        List.of(new SecondaryIndexSpec("by_f", "f")), SecondaryMaintenance.EAGER, 2);
  }

  /** A crash image of a dataset whose records are all still in its partition logs. */
  private Path dataset() throws Exception {
    Path live = tmp.resolve("live-ds");
    Path image = tmp.resolve("ds");
    try (Dataset ds = Dataset.open(live, datasetConfig())) {
      for (int i = 0; i < 300; i++) {
        ds.upsert(String.format("rec%04d", i), Map.of("f", "v" + (i % 7)));
      }
      ds.sync();
      LogImages.copyTree(live, image);
    }
    return image;
  }

  @Test
  void aDatasetIsVerifiedFromItsFilesWithoutReplayingOrTruncatingItsLogs() throws Exception {
    Path dir = dataset();
    // A torn tail in partition 0's log: opening the dataset would cut it; verify must not.
    Path seg = LogImages.newestSegment(dir.resolve("p0").resolve("wal"));
    Files.write(seg, new byte[] {0, 0, 0, 9}, StandardOpenOption.APPEND);
    CliTest.Result r = verify(dir);
    assertThat(r.code()).as(r.out() + r.err()).isZero();
    assertThat(r.out()).contains("300 records").contains("NOTE: " + seg).endsWith("ok\n");
  }

  @Test
  void aCorruptPartitionLogIsAFault() throws Exception {
    Path dir = dataset();
    Path seg = LogImages.newestSegment(dir.resolve("p1").resolve("wal"));
    String victim = null;
    byte[] data = Files.readAllBytes(seg);
    String text = new String(data, StandardCharsets.ISO_8859_1);
    for (int i = 0; i < 300 && victim == null; i++) {
      if (text.contains(String.format("rec%04d", i))) {
        victim = String.format("rec%04d", i);
      }
    }
    LogImages.flipInside(seg, victim);
    CliTest.Result r = verify(dir);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("FAULT: " + seg + " at offset ");
  }

  @Test
  void aCorruptDatasetJsonIsAFault() throws Exception {
    Path dir = dataset();
    Files.writeString(dir.resolve("dataset.json"), "{\"partitions\": \"two\"}");
    CliTest.Result r = verify(dir);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("FAULT: " + dir.resolve("dataset.json"))
        .contains("partitions");
  }

  @Test
  void aSecondaryIndexThatDisagreesWithThePrimaryIsAFault() throws Exception {
    Path dir = dataset();
    assertThat(verify(dir).code()).isZero();
    // A logged write that reached the primary index (tree 0) but not the secondary: no Strata
    // write does that, so verify must report it. Put it in both partitions' logs, so that it is
    // in the one its key hashes to.
    byte[] record = {1, 1, 'f', 2, 'v', '0'}; // one field: f = v0
    for (int p = 0; p < 2; p++) {
      WriteAheadLog wal = WriteAheadLog.open(dir.resolve("p" + p).resolve("wal"),
          Durability.SYNC, 10, FileIo.standard(), LogRecoveryMode.TOLERATE_TORN_TAIL, 0,
          (lsn, op) -> { });
      byte[] key = b("\0orphan");
      wal.append(List.of(new LogOp(key, record)));
      wal.close();
    }
    CliTest.Result r = verify(dir);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("FAULT: index by_f of partition ")
        .contains("lacks the entry (v0, orphan)");
  }
}
