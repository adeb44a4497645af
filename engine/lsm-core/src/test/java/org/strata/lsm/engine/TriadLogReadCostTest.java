package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.lsm.testing.TestStores.b;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.component.ReadAheadBuffer;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.io.Clock;
import org.strata.lsm.config.HotKeySelector;
import org.strata.lsm.testing.CountingFileIo;
import org.strata.lsm.testing.TestStores;

/**
 * What a CL-SSTable read costs in segment bytes, counted through the store's {@code FileIo}
 * (issue 38, item 3). TRIAD-MEM re-logs carried entries 1,024 to a record (about 320 KB with
 * these 300-byte values); a key carried and then flushed into a CL-SSTable points into such a
 * record. A point read must fetch its own operation, O(entry) bytes, not the record; a merge of
 * CL-SSTables must read each segment sequentially, once, not a record per key.
 */
class TriadLogReadCostTest {
  static final int KEYS = 1200;
  private static final int MEMORY = 1 << 20;

  @TempDir Path tmp;

  /**
   * TRIAD-MEM and TRIAD-LOG; the flush threshold is half the memory component, so a full
   * component whose keys' newest versions are below it carries every key (re-logged 1,024 to a
   * record) and flushes nothing.
   */
  static StoreConfig config() {
    return TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(MEMORY, 2))
        .withTriad(new TriadConfig(true, HotKeySelector.TOP_K, 1.0,
            ByteSize.ofBytes(MEMORY / 2), true));
  }

  static byte[] key(int i) {
    return b(String.format("k%05d", i));
  }

  static byte[] value(int round, int i) {
    return b(String.format("@@%04d-%05d-", round, i) + "v".repeat(288));
  }

  static List<Path> files(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    }
  }

  /**
   * Overwrites {@link #KEYS} keys until a seal carries them all into the next memory component
   * (re-logged in records of 1,024), then flushes that component: a CL-SSTable whose pointers
   * land in the re-logged records. Returns the newest value of each key.
   */
  static Map<Integer, byte[]> carryThenFlush(Store store) {
    Map<Integer, byte[]> model = new HashMap<>();
    outer:
    for (int round = 0; round < 20; round++) {
      for (int i = 0; i < KEYS; i++) {
        store.put(key(i), value(round, i));
        model.put(i, value(round, i));
        if (store.stats().bytes().reloggedEntries() > 0) {
          break outer;
        }
      }
    }
    assertThat(store.stats().bytes().reloggedEntries()).as("the seal carried every key")
        .isGreaterThanOrEqualTo(KEYS - 1);
    store.awaitSealedFlushed();
    store.flush();
    return model;
  }

  @Test
  void aPointReadOfACarriedKeyReadsItsOperationNotItsRecord() throws IOException {
    Path dir = tmp.resolve("store");
    CountingFileIo io = CountingFileIo.ofSuffix(".clog");
    try (Store store = Store.open(dir, config(), new StoreEnvironment(Clock.system(), io))) {
      Map<Integer, byte[]> model = carryThenFlush(store);
      assertThat(files(dir, ".cli")).hasSize(1);
      io.reset();
      long maxPerRead = 0;
      int fromSegment = 0;
      for (int i = 0; i < KEYS; i++) {
        long before = io.bytesRead();
        assertThat(store.get(key(i))).hasValue(model.get(i));
        long read = io.bytesRead() - before;
        maxPerRead = Math.max(maxPerRead, read);
        if (read > 0) {
          fromSegment++;
        }
      }
      System.out.printf("TriadLogReadCostTest: %d point reads of carried keys read %d segment"
          + " bytes in %d calls, at most %d bytes each%n", KEYS, io.bytesRead(), io.readCalls(),
          maxPerRead);
      assertThat(fromSegment).as("reads served from the CL-SSTable's segment")
          .isGreaterThanOrEqualTo(KEYS - 2);
      // an operation here is 1 + 4 + 6 (key) + 4 + 300 (value) = 315 bytes; its record of 1,024
      // operations is about 320 KB
      assertThat(maxPerRead).as("segment bytes read by one point read").isLessThanOrEqualTo(1024);
    }
  }

  @Test
  void aMergeOfCLSSTablesReadsEachSegmentOnceSequentially() throws IOException {
    Path dir = tmp.resolve("store");
    CountingFileIo io = CountingFileIo.ofSuffix(".clog");
    try (Store store = Store.open(dir, config(), new StoreEnvironment(Clock.system(), io))) {
      Map<Integer, byte[]> model = carryThenFlush(store);
      // a second CL-SSTable of single-put records, with stale versions in its segment
      for (int round = 100; round < 102; round++) {
        for (int i = 0; i < KEYS; i += 3) {
          store.put(key(i), value(round, i));
          model.put(i, value(round, i));
        }
      }
      store.flush();
      assertThat(files(dir, ".cli")).hasSize(2);
      long segmentBytes = 0;
      for (Path p : files(dir.resolve("wal"), ".clog")) {
        segmentBytes += Files.size(p);
      }
      io.reset();
      store.compact();
      assertThat(files(dir, ".cli")).as("the merge consumed the CL-SSTables").isEmpty();
      System.out.printf("TriadLogReadCostTest: the merge of 2 CL-SSTables read %d bytes of their"
          + " %d segment bytes in %d calls%n", io.bytesRead(), segmentBytes, io.readCalls());
      assertThat(io.bytesRead()).as("segment bytes the merge read (segments: %d bytes)",
          segmentBytes).isLessThanOrEqualTo(segmentBytes);
      // sequential reads of about 1 MB: a few per segment, not two per key
      assertThat(io.readCalls()).as("read calls of the merge on the segments")
          .isLessThanOrEqualTo(2 * (segmentBytes / (512 * 1024) + 2));
      for (int i = 0; i < KEYS; i++) {
        assertThat(store.get(key(i))).hasValue(model.get(i));
      }
    }
  }
  /**
   * A segment several times the merge's read buffer: the merge reads it in buffer-sized
   * sequential reads, each byte about once (an operation cut by the end of one read is read again
   * by the next), and writes every key's newest value.
   */
  @Test
  void aMergeReadsASegmentLargerThanItsBufferInBufferSizedReads() throws IOException {
    Path dir = tmp.resolve("store");
    CountingFileIo io = CountingFileIo.ofSuffix(".clog");
    StoreConfig cfg = TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(16 << 20, 2))
        .withTriad(TriadConfig.logOn());
    int keys = 12_000;
    Map<Integer, byte[]> model = new HashMap<>();
    try (Store store = Store.open(dir, cfg, new StoreEnvironment(Clock.system(), io))) {
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < keys; i += round + 1) { // the second round overwrites every other key
          store.put(key(i), value(round, i));
          model.put(i, value(round, i));
        }
      }
      store.flush();
      List<Path> segments = files(dir.resolve("wal"), ".clog");
      assertThat(segments).hasSize(1);
      long size = Files.size(segments.get(0));
      assertThat(size).isGreaterThan(3L * ReadAheadBuffer.DEFAULT_SIZE);
      io.reset();
      store.compact();
      assertThat(files(dir, ".cli")).isEmpty();
      System.out.printf("TriadLogReadCostTest: the merge of a CL-SSTable read %d bytes of its %d"
          + " segment bytes in %d calls%n", io.bytesRead(), size, io.readCalls());
      // about one read per buffer (each starts at an operation: a little less than a buffer
      // of new bytes), not one per key
      assertThat(io.readCalls()).isLessThanOrEqualTo(size / (ReadAheadBuffer.DEFAULT_SIZE / 2) + 2);
      assertThat(io.bytesRead()).isLessThanOrEqualTo(size + io.readCalls() * 400);
      for (int i = 0; i < keys; i++) {
        assertThat(store.get(key(i))).hasValue(model.get(i));
      }
    }
  }
}
