package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.lsm.testing.TestStores.b;
import static org.strata.lsm.testing.TestStores.s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.ByteCounters;
import org.strata.lsm.Durability;
import org.strata.lsm.io.StoreEnvironment;
import org.strata.lsm.StoreStats;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.config.HotKeySelector;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.testing.TestStores;
import org.strata.lsm.wal.LogOp;
import org.strata.lsm.wal.LogScan;

/**
 * TRIAD-MEM in the engine, invariants 2 and 3 of docs/papers/triad.md#invariants (1, the
 * update counter, is in {@code MemoryComponentTriadTest}) and its byte counters
 * (docs/papers/README.md#write-amplification).
 */
class TriadMemTest {
  private static final int MEMORY = 16 * 1024;

  @TempDir Path tmp;

  private static StoreConfig config(Durability d, long flushThreshold) {
    return TestStores.smallConfig(100)
        .withMemoryComponent(MemoryComponentConfig.of(MEMORY, 2))
        .withDurability(d)
        .withTriad(new TriadConfig(true, HotKeySelector.TOP_K, 1.0,
            ByteSize.ofBytes(flushThreshold)));
  }

  private static byte[] value(String tag, int i) {
    return b(String.format("%s-%04d-%040d", tag, i, i)); // 50 bytes
  }

  /** Every operation the log files hold now, in order (replays without changing a file). */
  private static List<Map.Entry<Long, LogOp>> logOps(Path dir) {
    List<Map.Entry<Long, LogOp>> ops = new ArrayList<>();
    try {
      // Read-only: the store may be open (its log holds the directory's lock).
      LogScan scan = LogScan.read(dir.resolve("wal"), 0);
      scan.replay(scan.segments().size(), 0, 0, (lsn, op) -> ops.add(Map.entry(lsn, op)));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return ops;
  }

  private static List<String> componentKeys(Path dir, ComponentInfo c) throws IOException {
    List<String> keys = new ArrayList<>();
    DiskComponent dc = DiskComponent.open(dir.resolve(c.name()), 0, new PageCache(0));
    try (EntryCursor cur = dc.cursor(null, null)) {
      while (cur.next()) {
        keys.add(s(cur.key()));
      }
    } finally {
      dc.release();
    }
    return keys;
  }

  /**
   * Invariant 2: a flush of a full component at or above the flush threshold writes only its cold
   * keys to level 0; the hot key stays in memory and is logged again in the new segment, with a
   * sequence number above every write of the flushed component, before the old segment is
   * dropped; a crash right after the flush (the directory as it is, nothing more forced) loses
   * neither the hot key nor a cold one.
   */
  @Test
  void aFlushWritesOnlyColdKeysAndReLogsTheHotOnes() throws IOException {
    Path dir = tmp.resolve("store");
    Map<String, byte[]> written = new LinkedHashMap<>();
    List<byte[]> hotValues = new ArrayList<>();
    try (Store store = Store.open(dir, config(Durability.NONE, 1024),
        StoreEnvironment.standard())) {
      int i = 0;
      // pairs of (hot update, new cold key) until the first component is sealed and flushed
      while (store.runs().isEmpty() && store.stats().bytes().reloggedEntries() == 0
          && i < 1000) { // bounded: about 90 pairs fill the 16KB component
        byte[] hv = value("hot", i);
        store.put(b("hot"), hv);
        hotValues.add(hv);
        String cold = String.format("cold%04d", i);
        store.put(b(cold), value("cold", i));
        written.put(cold, value("cold", i));
        i++;
      }
      store.awaitSealedFlushed();
      List<RunInfo> runs = store.runs();
      assertThat(runs).hasSize(1);
      assertThat(runs.get(0).components()).hasSize(1);
      List<String> flushedKeys = componentKeys(dir, runs.get(0).components().get(0));
      assertThat(flushedKeys).as("only cold keys reach level 0").doesNotContain("hot")
          .isNotEmpty().allMatch(k -> k.startsWith("cold"));
      // the key written last before the seal went into the new component, not the flushed one
      Set<String> inFlushed = new HashSet<>(flushedKeys);

      List<Map.Entry<Long, LogOp>> log = logOps(dir);
      assertThat(log).as("the old segment is dropped, the re-logged hot key opens the new one")
          .isNotEmpty();
      Map.Entry<Long, LogOp> first = log.get(0);
      assertThat(s(first.getValue().key())).isEqualTo("hot");
      byte[] hotAtSeal = first.getValue().value();
      assertThat(hotValues).anyMatch(v -> Arrays.equals(v, hotAtSeal));
      for (Map.Entry<Long, LogOp> e : log) {
        assertThat(inFlushed).as("no flushed key is still in the log")
            .doesNotContain(s(e.getValue().key()));
      }
      assertThat(store.get(b("hot")).orElseThrow()).isEqualTo(hotValues.get(i - 1));

      ByteCounters bytes = store.stats().bytes();
      assertThat(bytes.reloggedEntries()).isEqualTo(1);
      assertThat(bytes.reloggedBytes()).isEqualTo(3 + hotAtSeal.length);

      // a crash now: the directory as the flush left it (durability none: nothing else forced)
      Path image = LogImages.copyTree(dir, tmp.resolve("image"));
      Files.deleteIfExists(image.resolve("LOCK"));
      try (LsmStore crashed = LsmStore.open(image, null)) {
        assertThat(crashed.get(b("hot"))).as("the hot key survives the crash").isPresent();
        // the value at the seal, or a later one the forced log happened to hold as well
        byte[] got = crashed.get(b("hot")).orElseThrow();
        int at = indexOf(hotValues, got);
        assertThat(at).isGreaterThanOrEqualTo(indexOf(hotValues, hotAtSeal));
        for (String k : inFlushed) {
          assertThat(crashed.get(b(k)).orElseThrow()).isEqualTo(written.get(k));
        }
      }
    }
  }

  /**
   * Invariant 3: a full component whose keys' newest versions occupy less than the flush threshold
   * creates no level-0 component; the log is replaced by one record per key holding its freshest
   * value, and the old segments are dropped.
   */
  @Test
  void belowTheFlushThresholdNothingIsFlushedAndTheLogIsRewritten() throws IOException {
    Path dir = tmp.resolve("store");
    TreeMap<String, byte[]> model = new TreeMap<>();
    try (Store store = Store.open(dir, config(Durability.SYNC, 4096),
        StoreEnvironment.standard())) {
      int i = 0;
      // a bounded loop: 3000 puts of 10 keys fill the 16KB component many times over
      while (store.stats().bytes().flushesSkipped() < 3 && i < 3000) {
        String k = "key" + (i % 10);
        store.put(b(k), value(k, i));
        model.put(k, value(k, i));
        i++;
      }
      store.awaitSealedFlushed();
      StoreStats st = store.stats();
      assertThat(st.flushes()).as("no flush wrote a component").isZero();
      assertThat(store.runs()).as("no level-0 component").isEmpty();
      assertThat(st.bytes().flushesSkipped()).isGreaterThanOrEqualTo(3);
      assertThat(st.userBytesFlushed() + memoryUserBytes(st)).isEqualTo(st.userBytes());

      List<Map.Entry<Long, LogOp>> log = logOps(dir);
      assertThat(log.size()).as("old segments dropped").isLessThan(i);
      // the log opens with exactly one record per key of the component: its freshest value
      Map<String, byte[]> carried = new TreeMap<>();
      for (int j = 0; j < 10; j++) {
        carried.put(s(log.get(j).getValue().key()), log.get(j).getValue().value());
      }
      assertThat(carried).hasSize(10);
      Map<String, byte[]> replayed = new TreeMap<>();
      for (Map.Entry<Long, LogOp> e : log) {
        replayed.put(s(e.getValue().key()), e.getValue().value());
      }
      assertThat(replayed.keySet()).isEqualTo(model.keySet());
      for (String k : model.keySet()) {
        assertThat(replayed.get(k)).isEqualTo(model.get(k));
        assertThat(store.get(b(k)).orElseThrow()).isEqualTo(model.get(k));
      }
      Path image = LogImages.copyTree(dir, tmp.resolve("image"));
      Files.deleteIfExists(image.resolve("LOCK"));
      try (LsmStore crashed = LsmStore.open(image, null)) {
        for (String k : model.keySet()) {
          assertThat(crashed.get(b(k)).orElseThrow()).isEqualTo(model.get(k));
        }
      }
    }
  }

  private static int indexOf(List<byte[]> values, byte[] v) {
    for (int i = 0; i < values.size(); i++) {
      if (Arrays.equals(values.get(i), v)) {
        return i;
      }
    }
    return -1;
  }

  private static long memoryUserBytes(StoreStats st) {
    return st.userBytes() - st.userBytesFlushed();
  }

  /**
   * Byte counters: user bytes, log bytes (re-logged entries included), flush data and index bytes
   * and merge bytes per level add up, and survive a reopen.
   */
  @Test
  void byteCountersAddUpAndPersist() throws IOException {
    Path dir = tmp.resolve("store");
    StoreConfig cfg = config(Durability.NONE, 1024)
        .withMergePolicy(new NamedPlugin("test-merge-all", Map.of("max", "3")));
    long user = 0;
    long logged = 0;
    ByteCounters before;
    StoreStats st;
    try (Store store = Store.open(dir, cfg, StoreEnvironment.standard())) {
      for (int i = 0; i < 1500; i++) {
        String k = i % 3 == 0 ? "hot" + (i % 2) : String.format("cold%05d", i);
        byte[] v = value("v", i);
        store.put(b(k), v);
        user += k.length() + v.length;
        logged += 8 + 12 + 1 + 4 + k.length() + 4 + v.length; // one record per put
      }
      store.awaitSealedFlushed();
      store.awaitMerges();
      st = store.stats();
      before = st.bytes();
      assertThat(before.userBytes()).isEqualTo(user).isEqualTo(st.userBytes());
      assertThat(before.reloggedEntries()).isGreaterThan(0);
      // each carry here re-logs fewer than 1024 entries: one record per carry
      long extra = before.logBytes() - logged - 9 * before.reloggedEntries()
          - before.reloggedBytes();
      assertThat(extra).as("log bytes beyond user records and re-logged operations: the 20-byte"
          + " headers of the re-log records").isPositive();
      assertThat(extra % 20).isZero();
      assertThat(before.flushDataBytes()).isPositive();
      assertThat(before.flushIndexBytes()).isPositive();
      assertThat(before.flushDataBytes() + before.flushIndexBytes())
          .isEqualTo(st.bytesFlushed());
      assertThat(st.merges()).isPositive();
      assertThat(before.mergeBytesByLevel()).isNotEmpty();
      assertThat(before.mergeBytes()).isEqualTo(st.bytesMerged());
      assertThat(before.mergeDataBytesByLevel().keySet())
          .isEqualTo(before.mergeBytesByLevel().keySet());
      before.mergeDataBytesByLevel().forEach((level, data) -> assertThat(data)
          .as("leaf pages of merges into level %d: positive, less than the whole files", level)
          .isPositive().isLessThan(before.mergeBytesByLevel().get(level)));
    }
    // The close above flushed the memory component, which may have let the policy start a merge
    // (cancelled or finished by close) and would let it start one at the next open: reopen without
    // merges, so that what the reopened store reads is exactly what the closed store wrote.
    StoreConfig quiet = cfg.withMergePolicy(new NamedPlugin("test-merge-all", Map.of("max",
        "1000")));
    ByteCounters first;
    try (LsmStore reopened = LsmStore.open(dir, quiet)) {
      first = reopened.stats().bytes();
      assertThat(first.logBytes()).isGreaterThanOrEqualTo(before.logBytes());
      assertThat(first.reloggedEntries()).isGreaterThanOrEqualTo(before.reloggedEntries());
      assertThat(first.reloggedBytes()).isGreaterThanOrEqualTo(before.reloggedBytes());
      before.mergeBytesByLevel().forEach((level, bytes) ->
          assertThat(first.mergeBytesByLevel().get(level)).isGreaterThanOrEqualTo(bytes));
      before.mergeDataBytesByLevel().forEach((level, bytes) -> assertThat(
          first.mergeDataBytesByLevel().get(level)).as("kept in the manifest across a reopen")
          .isGreaterThanOrEqualTo(bytes));
      assertThat(first.flushDataBytes()).isGreaterThanOrEqualTo(before.flushDataBytes());
      assertThat(first.userBytes()).isEqualTo(before.userBytes());
    }
    try (LsmStore again = LsmStore.open(dir, quiet)) {
      ByteCounters second = again.stats().bytes();
      assertThat(second).isEqualTo(first);
    }
  }

  /** With TRIAD-MEM off nothing is carried or re-logged (the default is unchanged). */
  @Test
  void offByDefault() throws IOException {
    Path dir = tmp.resolve("store");
    try (Store store = Store.open(dir, config(Durability.NONE, 1024)
        .withTriad(TriadConfig.defaults()), StoreEnvironment.standard())) {
      for (int i = 0; i < 600; i++) {
        store.put(b(i % 2 == 0 ? "hot" : "cold" + i), value("v", i));
      }
      store.awaitSealedFlushed();
      assertThat(store.stats().bytes().reloggedEntries()).isZero();
      List<String> all = new ArrayList<>();
      for (RunInfo r : store.runs()) {
        for (ComponentInfo c : r.components()) {
          all.addAll(componentKeys(dir, c));
        }
      }
      assertThat(all).contains("hot");
    }
  }
}
