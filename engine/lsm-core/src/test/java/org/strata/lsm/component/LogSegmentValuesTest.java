package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.wal.WriteBatch;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.engine.Store;
import org.strata.lsm.io.BigEndian;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.WritableFile;
import org.strata.lsm.testing.CountingFileIo;
import org.strata.lsm.testing.TestStores;
import org.strata.lsm.wal.LogRecordLocator;

/**
 * A CL-SSTable's operation pointers checked against the segment, one by one ({@link
 * LogSegmentValues#resolve}) and in a scan's sequential pass ({@link SegmentScanValues}): every
 * mismatch (checksum, range, length, key, a delete where an upsert is indexed) fails with a
 * corruption error naming the segment and the operation's offset, or the index for a pointer of
 * another length; nothing else is returned.
 */
class LogSegmentValuesTest {
  @TempDir Path tmp;

  private Path segment;
  /** Each key's newest operation in the segment: offset, length, CRC32C; and the deleted key's. */
  private final Map<String, long[]> ops = new TreeMap<>();
  private final Map<String, String> values = new TreeMap<>();

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A sealed segment of single puts, a batch of 50 and a delete, from a TRIAD-LOG flush. */
  @BeforeEach
  void segment() throws Exception {
    Path dir = tmp.resolve("store");
    try (Store store = Store.open(dir, TestStores.smallConfig(100)
        .withTriad(TriadConfig.logOn()), StoreEnvironment.standard())) {
      for (int i = 0; i < 30; i++) {
        store.put(b(String.format("k%03d", i)), b("single-" + i));
      }
      WriteBatch batch = new WriteBatch();
      for (int i = 20; i < 70; i++) {
        batch.put(b(String.format("k%03d", i)), b("batched-" + i + "-" + "z".repeat(i)));
      }
      store.write(batch);
      store.delete(b("k005"));
      store.flush();
    }
    try (Stream<Path> s = Files.list(dir.resolve("wal"))) {
      Path clog = s.filter(p -> p.toString().endsWith(".clog")).findFirst().orElseThrow();
      segment = tmp.resolve("000000000007.clog");
      Files.copy(clog, segment);
    }
    LogRecordLocator.Locations where = LogRecordLocator.locate(segment);
    byte[] all = Files.readAllBytes(segment);
    for (long lsn = where.first(); lsn <= where.last(); lsn++) {
      long off = where.operationOffset(lsn);
      int len = where.operationLength(lsn);
      int crc = where.operationCrc(lsn);
      LogRecordLocator.Operation op =
          LogRecordLocator.checkOperation(all, (int) off, len, crc, segment, off);
      String key = new String(op.buf(), op.keyAt(), op.keyLength(), StandardCharsets.UTF_8);
      ops.put(key, new long[] {off, len, crc});
      if (op.isDelete()) {
        values.remove(key);
      } else {
        values.put(key, new String(op.value(), StandardCharsets.UTF_8));
      }
    }
    assertThat(values).hasSize(69).doesNotContainKey("k005");
  }

  private static byte[] pointer(long[] op) {
    return LogSegmentValues.pointer(op[0], (int) op[1], (int) op[2]);
  }

  /** Writes an index of {@code pointers} (null: anti-matter) and opens it over the segment. */
  private DiskComponent index(Map<String, byte[]> pointers, FileIo io) throws Exception {
    Path file = tmp.resolve("000000000007.cli");
    Files.deleteIfExists(file);
    try (WritableFile f = FileIo.standard().create(file);
        ComponentWriter w = new ComponentWriter(f, IoThrottle.unlimited(), 0, 4096, 0.01,
            1, 1, 100, 0)) {
      for (Map.Entry<String, byte[]> e : pointers.entrySet()) {
        w.add(b(e.getKey()), e.getValue());
      }
      w.finish();
    }
    return DiskComponent.openLogBacked(file, 7, new PageCache(0), segment, io);
  }

  private Map<String, byte[]> goodPointers() {
    Map<String, byte[]> p = new TreeMap<>();
    ops.forEach((k, op) -> p.put(k, values.containsKey(k) ? pointer(op) : null));
    return p;
  }

  private static Map<String, String> scan(DiskComponent c) {
    Map<String, String> out = new TreeMap<>();
    try (SequentialLeafScanner s = c.sequentialScan()) {
      while (s.next()) {
        if (!s.isAntimatter()) {
          String slice = new String(s.valueArray(), s.valueOffset(), s.valueLength(),
              StandardCharsets.UTF_8);
          assertThat(new String(s.value(), StandardCharsets.UTF_8)).isEqualTo(slice);
          out.put(new String(s.key(), StandardCharsets.UTF_8), slice);
        }
      }
    }
    return out;
  }

  @Test
  void pointReadsAndTheSequentialScanReturnEachKeysNewestValue() throws Exception {
    CountingFileIo io = new CountingFileIo(FileIo.standard(),
        p -> p.toString().endsWith(".clog"));
    DiskComponent c = index(goodPointers(), io);
    try {
      for (Map.Entry<String, String> e : values.entrySet()) {
        DiskComponent.Lookup l = c.get(b(e.getKey()), KeyHash.hash64(b(e.getKey())));
        assertThat(new String(l.value(), StandardCharsets.UTF_8)).isEqualTo(e.getValue());
      }
      assertThat(c.get(b("k005"), KeyHash.hash64(b("k005"))).isAntimatter()).isTrue();
      io.reset();
      assertThat(scan(c)).isEqualTo(values);
      assertThat(io.readCalls()).as("one sequential read of the small segment").isOne();
      assertThat(io.bytesRead()).isLessThanOrEqualTo(Files.size(segment));
      assertThat(ComponentVerifier.verify(c).faults()).isEmpty();
    } finally {
      c.release();
    }
  }

  @Test
  void aPointerToAnotherKeysOperationIsRefused() throws Exception {
    Map<String, byte[]> p = goodPointers();
    p.put("k010", pointer(ops.get("k011")));
    DiskComponent c = index(p, FileIo.standard());
    try {
      assertThatThrownBy(() -> c.get(b("k010"), KeyHash.hash64(b("k010"))))
          .isInstanceOf(CorruptionException.class)
          .hasMessageContaining(segment.toString() + " at offset " + ops.get("k011")[0])
          .hasMessageContaining("another key");
      assertThatThrownBy(() -> scan(c)).isInstanceOf(CorruptionException.class)
          .hasMessageContaining("another key");
      assertThat(ComponentVerifier.verify(c).faults()).singleElement().asString()
          .contains(segment.getFileName().toString()).contains("another key");
    } finally {
      c.release();
    }
  }

  @Test
  void aPointerWhoseChecksumOrLengthDiffersIsRefused() throws Exception {
    long[] op = ops.get("k040");
    for (byte[] bad : List.of(
        LogSegmentValues.pointer(op[0], (int) op[1], (int) op[2] ^ 1),
        LogSegmentValues.pointer(op[0], (int) op[1] - 1, (int) op[2]),
        LogSegmentValues.pointer(op[0] + 1, (int) op[1], (int) op[2]))) {
      Map<String, byte[]> p = goodPointers();
      p.put("k040", bad);
      DiskComponent c = index(p, FileIo.standard());
      try {
        assertThatThrownBy(() -> c.get(b("k040"), KeyHash.hash64(b("k040"))))
            .isInstanceOf(CorruptionException.class)
            .hasMessageContaining(segment.toString() + " at offset "
                + BigEndian.getLong(bad, 0))
            .hasMessageContaining("fails its checksum");
        assertThatThrownBy(() -> scan(c)).isInstanceOf(CorruptionException.class)
            .hasMessageContaining("fails its checksum");
        assertThat(c.get(b("k041"), KeyHash.hash64(b("k041"))).value()).isNotNull();
      } finally {
        c.release();
      }
    }
  }

  @Test
  void aPointerOutsideTheSegmentOrOfAnotherLengthIsRefused() throws Exception {
    long size = Files.size(segment);
    Map<String, byte[]> p = goodPointers();
    p.put("k040", LogSegmentValues.pointer(size - 10, 20, 0));
    DiskComponent c = index(p, FileIo.standard());
    try {
      assertThatThrownBy(() -> c.get(b("k040"), KeyHash.hash64(b("k040"))))
          .isInstanceOf(CorruptionException.class).hasMessageContaining("lies outside");
      assertThatThrownBy(() -> scan(c)).isInstanceOf(CorruptionException.class)
          .hasMessageContaining("lies outside");
    } finally {
      c.release();
    }
    p = goodPointers();
    p.put("k040", new byte[13]);
    DiskComponent d = index(p, FileIo.standard());
    try {
      assertThatThrownBy(() -> d.get(b("k040"), KeyHash.hash64(b("k040"))))
          .isInstanceOf(CorruptionException.class)
          .hasMessageContaining("000000000007.cli")
          .hasMessageContaining("log pointer of 13 bytes");
      assertThatThrownBy(() -> scan(d)).isInstanceOf(CorruptionException.class)
          .hasMessageContaining("log pointer of 13 bytes");
    } finally {
      d.release();
    }
  }

  @Test
  void aPointerToADeleteWhereTheIndexHoldsAnUpsertIsRefused() throws Exception {
    Map<String, byte[]> p = goodPointers();
    p.put("k005", pointer(ops.get("k005"))); // the delete's operation, as an upsert's pointer
    DiskComponent c = index(p, FileIo.standard());
    try {
      assertThatThrownBy(() -> c.get(b("k005"), KeyHash.hash64(b("k005"))))
          .isInstanceOf(CorruptionException.class).hasMessageContaining("is a delete");
      assertThatThrownBy(() -> scan(c)).isInstanceOf(CorruptionException.class)
          .hasMessageContaining("is a delete");
    } finally {
      c.release();
    }
  }

  @Test
  void aFlippedByteInTheSegmentFailsOnlyTheOperationHoldingIt() throws Exception {
    long[] op = ops.get("k050"); // inside the batch's record
    byte[] all = Files.readAllBytes(segment);
    all[(int) (op[0] + op[1] - 2)] ^= 0x01;
    Files.write(segment, all);
    DiskComponent c = index(goodPointers(), FileIo.standard());
    try {
      assertThatThrownBy(() -> c.get(b("k050"), KeyHash.hash64(b("k050"))))
          .isInstanceOf(CorruptionException.class)
          .hasMessageContaining(segment + " at offset " + op[0]);
      // the other operations of the same (now damaged) record are intact, and checked alone
      assertThat(new String(c.get(b("k051"), KeyHash.hash64(b("k051"))).value(),
          StandardCharsets.UTF_8)).isEqualTo(values.get("k051"));
      List<String> seen = new ArrayList<>();
      assertThatThrownBy(() -> {
        try (SequentialLeafScanner s = c.sequentialScan()) {
          while (s.next()) {
            if (!s.isAntimatter()) {
              s.valueArray();
              seen.add(new String(s.key(), StandardCharsets.UTF_8));
            }
          }
        }
      }).isInstanceOf(CorruptionException.class)
          .hasMessageContaining(segment + " at offset " + op[0]);
      assertThat(seen).as("the scan fails at the damaged entry, not before")
          .hasSize(new ArrayList<>(values.keySet()).indexOf("k050"));
    } finally {
      c.release();
    }
  }

  @Test
  void sortOrdersOffsetsAndMovesLengthsAlong() {
    SplittableRandom r = new SplittableRandom(5);
    for (int n : new int[] {0, 1, 2, 17, 100, 5000}) {
      for (int range : new int[] {3, 1_000_000}) {
        long[] offsets = new long[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
          offsets[i] = r.nextInt(range);
          lengths[i] = (int) (offsets[i] * 7 % 1000);
        }
        long[] expected = offsets.clone();
        Arrays.sort(expected);
        SegmentScanValues.sort(offsets, lengths, 0, n);
        assertThat(offsets).isEqualTo(expected);
        for (int i = 0; i < n; i++) {
          assertThat(lengths[i]).isEqualTo((int) (offsets[i] * 7 % 1000));
        }
      }
    }
    long[] sorted = new long[3000];
    int[] lengths = new int[3000];
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = i;
    }
    SegmentScanValues.sort(sorted, lengths, 0, sorted.length);
    assertThat(sorted[2999]).isEqualTo(2999);
  }
}
