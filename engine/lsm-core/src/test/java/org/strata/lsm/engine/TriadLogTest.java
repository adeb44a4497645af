package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.strata.lsm.testing.TestStores.b;
import static org.strata.lsm.testing.TestStores.s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.ByteCounters;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.StorageException;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.io.BigEndian;
import org.strata.lsm.io.Clock;
import org.strata.lsm.config.HotKeySelector;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.testing.FaultInjectingFileIo;
import org.strata.lsm.testing.FileOp;
import org.strata.lsm.testing.TestStores;

/**
 * TRIAD-LOG in the engine: invariant 7 of docs/papers/triad.md#invariants (a flush writes an index
 * and no value bytes; reads through a CL-SSTable return the latest version; a merge emits one
 * version per key, skipping stale and hot records), log retention, and corruption of the index
 * and of the segment.
 */
class TriadLogTest {
  @TempDir Path tmp;

  private static StoreConfig config(TriadConfig triad) {
    return TestStores.smallConfig(100).withTriad(triad);
  }

  private static StoreConfig logOnly() {
    return config(TriadConfig.logOn());
  }

  /** A 300-byte value tagged so that its bytes can be looked for in files. */
  private static byte[] value(String tag, int i) {
    return b(String.format("@@VALUE-%s-%06d-", tag, i) + "v".repeat(280));
  }

  private static List<Path> files(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  private static boolean contains(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static Map<String, String> contents(Store store) {
    Map<String, String> out = new TreeMap<>();
    try (ScanCursor c = store.scan(null, null)) {
      while (c.hasNext()) {
        KeyValue kv = c.next();
        out.put(s(kv.key()), s(kv.value()));
      }
    }
    return out;
  }

  /**
   * Invariant 7, first part: the flush writes a CL-SSTable whose index file holds no value byte;
   * the byte counters say zero flush data bytes and the index file's size as index bytes; the
   * segment is the log's own file (a hard link, no copy).
   */
  @Test
  void aFlushWritesOnlyAnIndexWithNoValueBytes() throws IOException {
    Path dir = tmp.resolve("store");
    int n = 100;
    try (Store store = Store.open(dir, logOnly(), StoreEnvironment.standard())) {
      for (int i = 0; i < n; i++) {
        store.put(b(String.format("k%04d", i)), value("a", i));
      }
      store.flush();
      List<Path> indexes = files(dir, ".cli");
      assertThat(indexes).hasSize(1);
      assertThat(files(dir, ".cmp")).isEmpty();
      byte[] index = Files.readAllBytes(indexes.get(0));
      assertThat(contains(index, b("@@VALUE"))).as("no value byte in the index file").isFalse();
      // entries of key (5 bytes), log pointer (16) and framing, plus the fixed pages (key sketch
      // 4 KiB, Bloom filter, meta, footer); the 300-byte values alone would be 30000 bytes
      assertThat(index.length).isLessThan(40 * n + 8192);
      ByteCounters bytes = store.stats().bytes();
      assertThat(bytes.flushDataBytes()).isZero();
      assertThat(bytes.flushIndexBytes()).isEqualTo(index.length);
      List<Path> segments = files(dir.resolve("wal"), ".clog");
      assertThat(segments).hasSize(1);
      assertThat(bytes.flushLogBytes()).as("the segment counts as the level-0 component's data")
          .isEqualTo(Files.size(segments.get(0)));
      assertThat(bytes.levelZeroBytes()).isEqualTo(index.length + Files.size(segments.get(0)));
      assertThat(contains(Files.readAllBytes(segments.get(0)), value("a", 7))).isTrue();
      assertThat(Files.readString(dir.resolve(Manifest.FILE)))
          .as("a manifest of this build is version 3, which older builds refuse")
          .startsWith("STRATA-MANIFEST 3 ");
      for (int i = 0; i < n; i++) {
        assertThat(store.get(b(String.format("k%04d", i)))).hasValue(value("a", i));
      }
    }
  }

  /**
   * A CL-SSTable's values are read from its log segment through the store's {@code FileIo}, as a
   * disk component's pages are: a failed read of the segment fails that read with an error naming
   * the segment, never a wrong or missing value, and once the fault stops the same read returns
   * the value. (Before, the segment was read through its own file channel, out of reach of the
   * fault injector.)
   */
  @Test
  void aFailedReadOfTheLogSegmentFailsTheReadNamingTheSegment() throws IOException {
    Path dir = tmp.resolve("store");
    FaultInjectingFileIo io = new FaultInjectingFileIo();
    StoreEnvironment env = new StoreEnvironment(Clock.system(), io);
    try (Store store = Store.open(dir, logOnly(), env)) {
      for (int i = 0; i < 50; i++) {
        store.put(b(String.format("k%04d", i)), value("f", i));
      }
      store.flush();
      Path segment = files(dir.resolve("wal"), ".clog").get(0);
      io.failMatching(Pattern.compile(".*\\.clog"), Set.of(FileOp.READ),
          FaultInjectingFileIo.Failure.ERROR);
      assertThatThrownBy(() -> store.get(b("k0007")))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining(segment.getFileName().toString())
          .hasMessageContaining(FaultInjectingFileIo.IO_ERROR);
      assertThat(io.injected()).as("the fault reached the segment's read").isPositive();
      io.heal();
      assertThat(store.get(b("k0007"))).hasValue(value("f", 7));
      assertThat(contents(store)).hasSize(50);
    }
  }

  /**
   * Invariant 7, the paper's example (section 4.3): records (1;10), (2;20), (3;30), (4;40), (3;300)
   * in the log; the index points key 3 at its later record, and reads (point and scan, before and
   * after a reopen) return 300.
   */
  @Test
  void readsThroughACLSSTableReturnTheLatestVersion() throws IOException {
    Path dir = tmp.resolve("store");
    try (Store store = Store.open(dir, logOnly(), StoreEnvironment.standard())) {
      store.put(b("1"), b("10"));
      store.put(b("2"), b("20"));
      store.put(b("3"), b("30"));
      store.put(b("4"), b("40"));
      store.put(b("3"), b("300"));
      store.flush();
      assertThat(store.get(b("3")).map(TestStores::s)).contains("300");
      assertThat(contents(store)).containsExactlyEntriesOf(
          Map.of("1", "10", "2", "20", "3", "300", "4", "40").entrySet().stream()
              .collect(TreeMap::new, (m, e) -> m.put(e.getKey(), e.getValue()), Map::putAll));
    }
    Path index = files(dir, ".cli").get(0);
    Map<String, Long> offsets = new TreeMap<>();
    Map<String, Integer> lengths = new TreeMap<>();
    DiskComponent raw = DiskComponent.open(index, 0, new PageCache(0)); // pointers, not values
    try (EntryCursor c = raw.cursor(null, null)) {
      while (c.next()) {
        assertThat(c.value()).as("an operation pointer").hasSize(16);
        offsets.put(s(c.key()), BigEndian.getLong(c.value(), 0));
        lengths.put(s(c.key()), BigEndian.getInt(c.value(), 8));
      }
    } finally {
      raw.release();
    }
    assertThat(offsets.keySet()).containsExactly("1", "2", "3", "4");
    assertThat(offsets.get("1")).as("the first operation, after the segment's header and its"
        + " record's framing, first LSN and count")
        .isEqualTo(org.strata.lsm.wal.SegmentHeader.SIZE + 8 + 12);
    assertThat(lengths.get("1")).as("kind, key length, key, value length, value")
        .isEqualTo(1 + 4 + 1 + 4 + 2);
    assertThat(lengths.get("3")).isEqualTo(1 + 4 + 1 + 4 + 3);
    assertThat(offsets.get("3")).as("key 3 points at its later record")
        .isGreaterThan(offsets.get("4"));
    try (Store store = Store.open(dir, logOnly(), StoreEnvironment.standard())) {
      assertThat(store.get(b("3")).map(TestStores::s)).contains("300");
      assertThat(store.get(b("1")).map(TestStores::s)).contains("10");
    }
  }

  /** Deletes are anti-matter in the index: they hide older versions in older components. */
  @Test
  void deletesInACLSSTableHideOlderVersions() throws IOException {
    Path dir = tmp.resolve("store");
    try (Store store = Store.open(dir, logOnly(), StoreEnvironment.standard())) {
      store.put(b("a"), b("old"));
      store.put(b("b"), b("old"));
      store.flush();
      store.delete(b("a"));
      store.put(b("b"), b("new"));
      store.flush();
      assertThat(files(dir, ".cli")).hasSize(2);
      assertThat(store.get(b("a"))).isEmpty();
      assertThat(contents(store)).containsExactly(Map.entry("b", "new"));
      store.compact();
      assertThat(store.get(b("a"))).isEmpty();
      assertThat(contents(store)).containsExactly(Map.entry("b", "new"));
    }
  }

  /**
   * Invariant 7, last part, with TRIAD-MEM on too: the merge of CL-SSTables writes exactly one (the
   * latest) version of each cold key; stale versions in the segments and the hot key's records
   * (carried to the next memory component) are skipped.
   */
  @Test
  void aMergeEmitsOneVersionPerKeySkippingStaleAndHotRecords() throws IOException {
    Path dir = tmp.resolve("store");
    StoreConfig cfg = config(new TriadConfig(true, HotKeySelector.TOP_K, 1.0,
        ByteSize.ofBytes(0), true)).withMemoryComponent(MemoryComponentConfig.of(32 * 1024, 2));
    Map<String, String> model = new TreeMap<>();
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      int i = 0;
      // fill memory components until two CL-SSTables exist: the hot key is written 4 times as
      // often as all cold keys together, each cold key 3 times (stale versions in the segment)
      while (files(dir, ".cli").size() < 2 && i < 3000) {
        for (int h = 0; h < 4; h++) {
          store.put(b("hot"), b("h" + i + "-" + h));
          model.put("hot", "h" + i + "-" + h);
        }
        String k = String.format("cold%04d", i / 3);
        store.put(b(k), b("c" + i));
        model.put(k, "c" + i);
        i++;
        store.awaitSealedFlushed();
      }
      assertThat(files(dir, ".cli")).hasSize(2);
      long relogged = store.stats().bytes().reloggedEntries();
      assertThat(relogged).as("the hot key was carried over").isPositive();
      long mergedBefore = store.stats().bytes().mergeBytes();
      store.compact();
      assertThat(store.stats().bytes().mergeBytes()).isGreaterThan(mergedBefore);
      assertThat(files(dir, ".cli")).as("the merge consumed the CL-SSTables").isEmpty();
      List<RunInfo> runs = store.runs();
      assertThat(runs).hasSize(1);
      Path merged = dir.resolve(runs.get(0).components().get(0).name());
      Map<String, Integer> versions = new TreeMap<>();
      Map<String, String> mergedValues = new TreeMap<>();
      DiskComponent dc = DiskComponent.open(merged, 0, new PageCache(0));
      try (EntryCursor c = dc.cursor(null, null)) {
        while (c.next()) {
          versions.merge(s(c.key()), 1, Integer::sum);
          mergedValues.put(s(c.key()), s(c.value()));
        }
      } finally {
        dc.release();
      }
      assertThat(versions).doesNotContainKey("hot").allSatisfy((k, v) -> assertThat(v).isOne());
      assertThat(dc.meta().entryCount()).isEqualTo(versions.size());
      String lastCold = String.format("cold%04d", (i - 1) / 3); // may have newer versions in memory
      for (Map.Entry<String, String> e : mergedValues.entrySet()) {
        if (!e.getKey().equals(lastCold)) {
          assertThat(e.getValue()).as("latest version of %s", e.getKey())
              .isEqualTo(model.get(e.getKey()));
        }
      }
      assertThat(contents(store)).isEqualTo(model);
    }
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      assertThat(contents(store)).isEqualTo(model);
    }
  }

  private static Map<String, String> reopenContents(Path dir, StoreConfig cfg) {
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      return contents(store);
    }
  }

  private static List<String> walNames(Path dir) throws IOException {
    return files(dir.resolve("wal"), ".log").stream().map(p -> p.getFileName().toString())
        .filter(n -> n.startsWith("wal-")).toList();
  }

  /**
   * Log retention: once a flush is in the manifest, log truncation deletes the segment's {@code
   * wal-*.log} name, but the segment backing the CL-SSTable stays (as {@code .clog}) and serves
   * reads; after the merge that consumes the CL-SSTable lands, the segment is deleted. A reopen at
   * every step equals the model, and nothing is replayed twice.
   */
  @Test
  void aSegmentBackingACLSSTableOutlivesTruncationUntilItsMerge() throws IOException {
    Path dir = tmp.resolve("store");
    Map<String, String> model = new TreeMap<>();
    try (Store store = Store.open(dir, logOnly(), StoreEnvironment.standard())) {
      for (int i = 0; i < 50; i++) {
        store.put(b("a" + i), b("first" + i));
        model.put("a" + i, "first" + i);
      }
      List<String> before = walNames(dir);
      assertThat(before).hasSize(1);
      store.flush();
      assertThat(walNames(dir)).as("truncation dropped the sealed segment's log name")
          .doesNotContain(before.get(0));
      List<Path> segments = files(dir.resolve("wal"), ".clog");
      assertThat(segments).as("the segment backing the CL-SSTable is still there").hasSize(1);
      assertThat(contains(Files.readAllBytes(segments.get(0)), b("first7"))).isTrue();
      assertThat(contents(store)).isEqualTo(model);
    }
    assertThat(reopenContents(dir, logOnly())).isEqualTo(model);
    try (Store store = Store.open(dir, logOnly(), StoreEnvironment.standard())) {
      assertThat(store.stats().bytes().flushIndexBytes()).isPositive();
      for (int i = 0; i < 50; i += 2) {
        store.put(b("a" + i), b("second" + i));
        model.put("a" + i, "second" + i);
      }
      store.delete(b("a1"));
      model.remove("a1");
      store.flush();
      assertThat(files(dir.resolve("wal"), ".clog")).hasSize(2);
      assertThat(contents(store)).isEqualTo(model);
    }
    assertThat(reopenContents(dir, logOnly())).isEqualTo(model);
    try (Store store = Store.open(dir, logOnly(), StoreEnvironment.standard())) {
      store.compact();
      assertThat(files(dir, ".cli")).isEmpty();
      assertThat(files(dir.resolve("wal"), ".clog")).as("merged away: segments deleted")
          .isEmpty();
      assertThat(Files.readString(dir.resolve(Manifest.FILE))).startsWith("STRATA-MANIFEST 3 ");
      assertThat(contents(store)).isEqualTo(model);
    }
    assertThat(reopenContents(dir, logOnly())).isEqualTo(model);
    assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
  }

  /** Flips one byte of {@code file} at {@code offset}. */
  private static void flip(Path file, long offset) throws IOException {
    byte[] all = Files.readAllBytes(file);
    all[(int) offset] ^= 0x40;
    Files.write(file, all);
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    for (int i = 0; i + needle.length <= hay.length; i++) {
      if (contains(java.util.Arrays.copyOfRange(hay, i, i + needle.length), needle)) {
        return i;
      }
    }
    return -1;
  }

  private Path storeWithOneCLSSTable() throws IOException {
    Path dir = tmp.resolve("store");
    try (Store store = Store.open(dir, logOnly(), StoreEnvironment.standard())) {
      for (int i = 0; i < 20; i++) {
        store.put(b(String.format("k%02d", i)), value("c", i));
      }
      store.flush();
    }
    assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
    return dir;
  }

  /**
   * A flipped byte in a value of the CL-SSTable's segment: the read of that key fails naming the
   * segment file, never returns the damaged value; verify reports the segment.
   */
  @Test
  void aDamagedSegmentRecordFailsTheReadAndVerify() throws IOException {
    Path dir = storeWithOneCLSSTable();
    Path segment = files(dir.resolve("wal"), ".clog").get(0);
    int at = indexOf(Files.readAllBytes(segment), value("c", 5));
    assertThat(at).isPositive();
    flip(segment, at + 20);
    try (Store store = Store.open(dir, logOnly(), StoreEnvironment.standard())) {
      assertThatThrownBy(() -> store.get(b("k05"))).isInstanceOf(CorruptionException.class)
          .hasMessageContaining(segment.getFileName().toString());
      assertThat(store.get(b("k04"))).hasValue(value("c", 4)); // its own record is intact
      assertThatThrownBy(() -> contents(store)).isInstanceOf(CorruptionException.class)
          .hasMessageContaining(segment.getFileName().toString());
    }
    assertThat(StoreVerifier.verify(dir).faults()).anySatisfy(
        f -> assertThat(f).contains(segment.getFileName().toString()));
  }

  /**
   * A flipped byte in the CL-SSTable's index (a leaf page): reads fail naming the index file,
   * verify reports it.
   */
  @Test
  void aDamagedIndexPageFailsTheReadAndVerify() throws IOException {
    Path dir = storeWithOneCLSSTable();
    Path index = files(dir, ".cli").get(0);
    int at = indexOf(Files.readAllBytes(index), b("k10"));
    assertThat(at).isNotNegative();
    flip(index, at + 2);
    try (Store store = Store.open(dir, logOnly(), StoreEnvironment.standard())) {
      assertThatThrownBy(() -> contents(store)).isInstanceOf(CorruptionException.class)
          .hasMessageContaining(index.getFileName().toString());
    }
    assertThat(StoreVerifier.verify(dir).faults()).anySatisfy(
        f -> assertThat(f).contains(index.getFileName().toString()));
  }
}
