package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.strata.lsm.engine.TriadLogReadCostTest.KEYS;
import static org.strata.lsm.engine.TriadLogReadCostTest.files;
import static org.strata.lsm.engine.TriadLogReadCostTest.key;
import static org.strata.lsm.engine.TriadLogReadCostTest.value;
import static org.strata.lsm.testing.TestStores.b;
import static org.strata.lsm.testing.TestStores.s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.io.BigEndian;
import org.strata.lsm.io.Clock;
import org.strata.lsm.testing.CountingFileIo;
import org.strata.lsm.testing.TestStores;

/**
 * The pointers of a CL-SSTable's index (docs/format.md): operation pointers, checked against the
 * bytes they point at; and the 12-byte record pointers of CL-SSTables written before them, still
 * read (point reads, scans, {@code verify}, merges), in a store built by the flush writing the
 * old format.
 */
class TriadLogPointerTest {
  @TempDir Path tmp;

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

  /** Each CL-SSTable index of {@code dir}: its keys' raw pointers. */
  private static List<Map<String, byte[]>> pointers(Path dir) throws IOException {
    return files(dir, ".cli").stream().map(p -> {
      Map<String, byte[]> out = new TreeMap<>();
      DiskComponent raw = DiskComponent.open(p, 0, new PageCache(0)); // pointers, not values
      try (EntryCursor c = raw.cursor(null, null)) {
        while (c.next()) {
          if (c.value() != null) {
            out.put(s(c.key()), c.value());
          }
        }
      } finally {
        raw.release();
      }
      return out;
    }).toList();
  }

  /**
   * A store whose CL-SSTables hold record pointers, as earlier builds wrote them: one over
   * TRIAD-MEM's re-logged records, one over single puts with stale versions and a delete. This
   * build reads it: point reads, a scan, {@code verify}, a merge, and reopens.
   */
  @Test
  void aStoreWithRecordPointersIsStillRead() throws IOException {
    Path dir = tmp.resolve("store");
    StoreConfig cfg = TriadLogReadCostTest.config();
    Map<String, String> model = new TreeMap<>();
    ClSsTableFlush.recordPointersForTests = true;
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      TriadLogReadCostTest.carryThenFlush(store)
          .forEach((i, v) -> model.put(s(key(i)), s(v)));
      for (int round = 100; round < 102; round++) {
        for (int i = 0; i < KEYS; i += 7) {
          store.put(key(i), value(round, i));
          model.put(s(key(i)), s(value(round, i)));
        }
      }
      store.delete(key(3));
      model.remove(s(key(3)));
      store.flush();
    } finally {
      ClSsTableFlush.recordPointersForTests = false;
    }
    List<Map<String, byte[]>> old = pointers(dir);
    assertThat(old).hasSize(2);
    assertThat(old).allSatisfy(m -> assertThat(m.values())
        .allSatisfy(p -> assertThat(p).as("a record pointer").hasSize(12)));

    CountingFileIo io = CountingFileIo.ofSuffix(".clog");
    try (Store store = Store.open(dir, cfg, new StoreEnvironment(Clock.system(), io))) {
      for (int i = 0; i < KEYS; i++) {
        assertThat(store.get(key(i)).map(TestStores::s)).as("key %d", i)
            .isEqualTo(java.util.Optional.ofNullable(model.get(s(key(i)))));
      }
      assertThat(io.bytesRead()).as("the record pointers into re-logged records read them whole")
          .isGreaterThan(100L * 1024 * 1024);
      assertThat(contents(store)).isEqualTo(model);
    }
    assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      store.compact();
      assertThat(files(dir, ".cli")).as("merged into an ordinary component").isEmpty();
      assertThat(contents(store)).isEqualTo(model);
    }
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      assertThat(contents(store)).isEqualTo(model);
    }
    assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
  }

  /**
   * A store holding a CL-SSTable of each kind of pointer (record pointers from before, operation
   * pointers from now) reads both and merges them together.
   */
  @Test
  void aCLSSTableOfRecordPointersMergesWithOneOfOperationPointers() throws IOException {
    Path dir = tmp.resolve("store");
    StoreConfig cfg = TestStores.smallConfig(100).withTriad(TriadConfig.logOn());
    Map<String, String> model = new TreeMap<>();
    ClSsTableFlush.recordPointersForTests = true;
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      for (int i = 0; i < 40; i++) {
        store.put(b("k" + i), b("old" + i));
        model.put("k" + i, "old" + i);
      }
      store.flush();
    } finally {
      ClSsTableFlush.recordPointersForTests = false;
    }
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      for (int i = 0; i < 40; i += 3) {
        store.put(b("k" + i), b("new" + i));
        model.put("k" + i, "new" + i);
      }
      store.flush();
      List<Map<String, byte[]>> p = pointers(dir);
      assertThat(p.stream().map(m -> m.values().iterator().next().length))
          .containsExactlyInAnyOrder(12, 16);
      assertThat(contents(store)).isEqualTo(model);
      store.compact();
      assertThat(files(dir, ".cli")).isEmpty();
      assertThat(contents(store)).isEqualTo(model);
    }
    assertThat(StoreVerifier.verify(dir).faults()).isEmpty();
  }

  /**
   * A flipped byte in the value of one operation: its point read fails with a corruption error
   * naming the segment file and the operation's offset, a merge fails and installs nothing, verify
   * reports the segment and offset; the other keys, whose operations are intact, still read.
   */
  @Test
  void aDamagedOperationFailsItsReadAndTheMergeNamingTheSegmentAndOffset() throws IOException {
    Path dir = tmp.resolve("store");
    StoreConfig cfg = TestStores.smallConfig(100).withTriad(TriadConfig.logOn());
    Map<String, String> model = new HashMap<>();
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      for (int i = 0; i < 20; i++) {
        store.put(b(String.format("k%02d", i)), b("value-" + i + "-" + "x".repeat(100)));
        model.put(String.format("k%02d", i), "value-" + i + "-" + "x".repeat(100));
      }
      store.flush();
    }
    Path segment = files(dir.resolve("wal"), ".clog").get(0);
    byte[] pointer = pointers(dir).get(0).get("k05");
    long offset = BigEndian.getLong(pointer, 0);
    int length = BigEndian.getInt(pointer, 8);
    byte[] all = Files.readAllBytes(segment);
    all[(int) offset + length - 3] ^= 0x20; // in the value
    Files.write(segment, all);
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      assertThatThrownBy(() -> store.get(b("k05"))).isInstanceOf(CorruptionException.class)
          .hasMessageContaining(segment.getFileName().toString())
          .hasMessageContaining("at offset " + offset)
          .hasMessageContaining("fails its checksum");
      for (int i = 0; i < 20; i++) {
        if (i != 5) {
          String k = String.format("k%02d", i);
          assertThat(store.get(b(k)).map(TestStores::s)).hasValue(model.get(k));
        }
      }
      store.compact(); // the merge fails on the damaged operation (logged) and keeps its inputs
      assertThat(files(dir, ".cli")).as("the failed merge left the CL-SSTable").hasSize(1);
      assertThat(files(dir, ".cmp")).as("and installed nothing").isEmpty();
      assertThatThrownBy(() -> store.get(b("k05"))).isInstanceOf(CorruptionException.class);
    }
    assertThat(StoreVerifier.verify(dir).faults()).anySatisfy(f -> assertThat(f)
        .contains(segment.getFileName().toString()).contains("at offset " + offset));
  }
}
