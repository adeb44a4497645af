package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.lsm.testing.TestStores.b;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.KeyValue;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.component.ComponentMeta;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.config.IoConfig;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.io.BigEndian;
import org.strata.lsm.testing.FlipTally;
import org.strata.lsm.testing.FlipTally.Outcome;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.wal.SegmentHeader;
import org.strata.lsm.testing.TestStores;

/**
 * Corruption campaign over every file kind of a store: a pristine image with four disk components
 * (overwrites and anti-matter across them) and a log holding unflushed writes gets one byte XORed
 * with a random non-zero mask at a random offset of one file region per trial, on a fresh copy.
 * Then the damaged copy is verified ({@link StoreVerifier}, which changes nothing), opened, every
 * key of the key space is read and everything is scanned, and the trial is classified against the
 * model (see {@link FlipTally}). Any served-wrong trial fails the test; so does an error that does
 * not name what was damaged. Each run prints its seed and the table; rerun one seed with {@code
 * -Dcorruption.seed=N} and change the number of trials with {@code -Dcorruption.trials=N}.
 *
 * <p>A log flip is detected when the open refuses naming the segment, or when the open cuts the
 * log at the damaged record (the reads then equal the model without that record and everything
 * after it, and a warning names the segment). Flips in a record whose writes are already flushed
 * may be harmless.
 */
class CorruptionCampaignTest {
  static final int KEYS = 400;
  static final int UNFLUSHED = 40;

  @TempDir Path tmp;

  /** The regions flipped, each a file kind (or part of one) named in docs/format.md. */
  enum Region { LEAF, INTERIOR, BLOOM, KEY_SKETCH, META, FOOTER, MANIFEST, LOG, LOG_CATALOG,
    STORE_CONFIG }

  /** One unflushed write: its key and value (null for a delete). */
  private record Op(String key, String value) {}

  /** One log record as found in the pristine image. */
  private record LogRecord(String segment, long offset, long length, long firstLsn) {}

  /** Where to flip: file (relative to the store), first offset and end offset of the region. */
  private record Target(String file, long from, long to) {}

  private final TreeMap<String, String> flushed = new TreeMap<>();
  private final List<Op> unflushed = new ArrayList<>();
  private final Map<Region, List<Target>> targets = new HashMap<>();
  private final List<LogRecord> records = new ArrayList<>();
  private long flushedLsn;

  static long seed() {
    return Long.getLong("corruption.seed", 20_2026L);
  }

  static int trials() {
    return Integer.getInteger("corruption.trials", 540);
  }

  static String key(int i) {
    return String.format("key%04d", i);
  }

  @Test
  void noSingleByteFlipInAnyStoreFileServesWrongData() throws Exception {
    long seed = seed();
    System.out.println("CorruptionCampaignTest seed " + seed + " (rerun: -Dcorruption.seed="
        + seed + ")");
    Random rnd = new Random(seed);
    Path pristine = buildPristine(rnd);
    FlipTally tally = run(pristine, rnd, trials());
    System.out.println("CorruptionCampaignTest store campaign, seed " + seed + "\n"
        + tally.table());
    tally.badTrials().forEach(System.out::println);
    assertThat(tally.trials()).isEqualTo(trials());
    assertThat(tally.count(Outcome.DETECTED)).as("the detector finds something")
        .isPositive();
    assertThat(tally.badTrials()).as("served-wrong or unclear trials, seed %d", seed).isEmpty();
  }

  /**
   * The pristine store: four flushed components over a key space of {@value #KEYS} keys, each
   * flush overwriting and deleting some keys of the earlier ones, then {@value #UNFLUSHED}
   * single-write records in the log only. Copied while open after a sync: what a crash leaves.
   */
  Path buildPristine(Random rnd) throws Exception {
    Path dir = tmp.resolve("build");
    Path pristine = tmp.resolve("pristine");
    // the sketched policy, so that every component has a key sketch page to flip
    try (LsmStore store = LsmStore.open(dir, TestStores.smallConfig(100)
        .withMergePolicy(new NamedPlugin("test-merge-all-sketched", Map.of("max", "100")))
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2))
        .withIo(IoConfig.of(0, 1 << 20, 512)))) {
      for (int round = 0; round < 4; round++) {
        for (int i = 0; i < KEYS; i++) {
          int r = rnd.nextInt(10);
          if (round == 0 ? r < 7 : r < 3) {
            String v = "v" + round + "-" + i + "-" + "x".repeat(rnd.nextInt(30));
            store.put(b(key(i)), b(v));
            flushed.put(key(i), v);
          } else if (round > 0 && r == 3) {
            store.delete(b(key(i)));
            flushed.remove(key(i));
          }
        }
        store.flush();
      }
      for (int n = 0; n < UNFLUSHED; n++) {
        int i = rnd.nextInt(KEYS);
        if (rnd.nextInt(4) == 0) {
          store.delete(b(key(i)));
          unflushed.add(new Op(key(i), null));
        } else {
          String v = "u" + n + "-" + i;
          store.put(b(key(i)), b(v));
          unflushed.add(new Op(key(i), v));
        }
      }
      store.sync();
      LogImages.copyTree(dir, pristine);
    }
    Files.deleteIfExists(pristine.resolve("LOCK"));
    assertThat(StoreVerifier.verify(pristine).ok()).as("the pristine image verifies").isTrue();
    findTargets(pristine);
    assertThat(model(unflushed.size())).as("the pristine image reads as the model")
        .isEqualTo(readAll(LogImages.copyTree(pristine, tmp.resolve("check"))).state);
    return pristine;
  }

  /** The model after the flushed writes and the first {@code n} unflushed ones. */
  private TreeMap<String, String> model(int n) {
    TreeMap<String, String> m = new TreeMap<>(flushed);
    for (Op op : unflushed.subList(0, n)) {
      if (op.value == null) {
        m.remove(op.key);
      } else {
        m.put(op.key, op.value);
      }
    }
    return m;
  }

  private void findTargets(Path pristine) throws Exception {
    for (Region r : Region.values()) {
      targets.put(r, new ArrayList<>());
    }
    List<Path> components;
    try (Stream<Path> s = Files.list(pristine)) {
      components = s.filter(p -> p.toString().endsWith(".cmp")).sorted().toList();
    }
    assertThat(components).as("components of the pristine image").hasSize(4);
    for (Path p : components) {
      String name = p.getFileName().toString();
      long size = Files.size(p);
      DiskComponent c = DiskComponent.open(p, 0, new PageCache(0));
      try {
        ComponentMeta m = c.meta();
        assertThat(m.treeHeight()).as("interior pages in %s", name).isGreaterThan(1);
        assertThat(m.sketchLength()).as("a key sketch page in %s", name).isPositive();
        long metaStart = Math.max(m.bloomOffset() + m.bloomLength(),
            m.sketchOffset() + m.sketchLength());
        targets.get(Region.LEAF).add(new Target(name, m.leafStart(), m.leafEnd()));
        targets.get(Region.INTERIOR).add(new Target(name, m.leafEnd(), m.bloomOffset()));
        targets.get(Region.BLOOM).add(new Target(name, m.bloomOffset(),
            m.bloomOffset() + m.bloomLength()));
        targets.get(Region.KEY_SKETCH).add(new Target(name, m.sketchOffset(),
            m.sketchOffset() + m.sketchLength()));
        targets.get(Region.META).add(new Target(name, metaStart, size - 32));
        targets.get(Region.FOOTER).add(new Target(name, size - 32, size));
      } finally {
        c.release();
      }
    }
    targets.get(Region.MANIFEST).add(whole(pristine, "MANIFEST"));
    targets.get(Region.STORE_CONFIG).add(whole(pristine, "config.json"));
    flushedLsn = StoreVerifier.flushedLsn(pristine);
    List<Path> segments;
    try (Stream<Path> s = Files.list(pristine.resolve("wal"))) {
      segments = s.filter(p -> p.toString().endsWith(".log")).sorted().toList();
    }
    for (Path seg : segments) {
      String name = "wal/" + seg.getFileName();
      targets.get(Region.LOG).add(whole(pristine, name));
      byte[] data = Files.readAllBytes(seg);
      // The segment header (its log id and first sequence number), then the records; force marks
      // (records of no operation) hold no write.
      records.add(new LogRecord(name, 0, SegmentHeader.SIZE, -1));
      int off = SegmentHeader.SIZE;
      while (off + 8 <= data.length) {
        int bodyLength = BigEndian.getInt(data, off);
        long firstLsn = BigEndian.getLong(data, off + 8);
        int count = BigEndian.getInt(data, off + 16);
        records.add(new LogRecord(name, off, 8L + bodyLength, count == 0 ? -1 : firstLsn));
        off += 8 + bodyLength;
      }
      assertThat(off).as("records of %s", name).isEqualTo(data.length);
    }
    assertThat(records.stream().filter(r -> r.firstLsn > flushedLsn).count())
        .as("one log record per unflushed write").isEqualTo(UNFLUSHED);
    targets.get(Region.LOG_CATALOG).add(whole(pristine, "wal/CATALOG"));
    targets.values().forEach(l -> l.removeIf(t -> t.to <= t.from));
  }

  private static Target whole(Path dir, String file) throws Exception {
    return new Target(file, 0, Files.size(dir.resolve(file)));
  }

  /** Runs {@code n} trials, the regions in turn. */
  FlipTally run(Path pristine, Random rnd, int n) throws Exception {
    FlipTally tally = new FlipTally();
    Region[] regions = Region.values();
    List<LogEvent> warnings = new CopyOnWriteArrayList<>();
    AbstractAppender capture = new AbstractAppender("corruption-campaign", null, null, true,
        Property.EMPTY_ARRAY) {
      @Override
      public void append(LogEvent e) {
        if (e.getLevel().isMoreSpecificThan(Level.WARN)) {
          warnings.add(e.toImmutable());
        }
      }
    };
    capture.start();
    org.apache.logging.log4j.core.Logger logger =
        (org.apache.logging.log4j.core.Logger) LogManager.getLogger(
            "org.strata.lsm.wal.LogRecovery");
    // Recovery's warnings are captured here, not printed: the default configuration drops WARN.
    Level level = logger.getLevel();
    boolean additive = logger.isAdditive();
    logger.addAppender(capture); // before the level: adding an appender resets it
    logger.setLevel(Level.WARN);
    logger.setAdditive(false);
    try {
      for (int t = 0; t < n; t++) {
        Region region = regions[t % regions.length];
        List<Target> ts = targets.get(region);
        Target target = ts.get(rnd.nextInt(ts.size()));
        long offset = target.from + (long) (rnd.nextDouble() * (target.to - target.from));
        int mask = 1 + rnd.nextInt(255);
        Path dir = tmp.resolve("trial");
        FlipTally.deleteTree(dir);
        LogImages.copyTree(pristine, dir);
        FlipTally.flip(dir.resolve(target.file), offset, mask);
        warnings.clear();
        String what = String.format("%s offset %d mask 0x%02x", target.file, offset, mask);
        tally.add(region.name(), trial(dir, region, target, offset, warnings, what), what);
      }
    } finally {
      logger.removeAppender(capture);
      logger.setAdditive(additive);
      logger.setLevel(level);
    }
    return tally;
  }

  /** What reading a damaged copy gave. */
  private static final class Observed {
    final TreeMap<String, String> state = new TreeMap<>();
    final List<String> scanned = new ArrayList<>();
    boolean scanFailed;
    String error; // the first read or open error, if any
    boolean errorNamesFile;
    boolean openFailed;
  }

  private Outcome trial(Path dir, Region region, Target target, long offset,
      List<LogEvent> warnings, String what) {
    String fileName = Path.of(target.file).getFileName().toString();
    boolean verifyReports;
    try {
      StoreVerifier.VerifyReport v = StoreVerifier.verify(dir);
      verifyReports = Stream.concat(v.faults().stream(), region == Region.LOG
          ? v.notes().stream() : Stream.empty()).anyMatch(f -> f.contains(fileName));
    } catch (RuntimeException e) {
      verifyReports = String.valueOf(e.getMessage()).contains(fileName);
    }
    Observed o = readAll(dir, fileName);
    if (Boolean.getBoolean("corruption.verbose")) {
      System.out.println(what + ": verify " + (verifyReports ? "reports it" : "is clean")
          + (o.error == null ? "" : "; " + (o.openFailed ? "open" : "read") + " error " + o.error));
    }
    if (o.openFailed) {
      if (!o.errorNamesFile) {
        System.out.println("unclear: " + what + ": " + o.error);
      }
      return o.errorNamesFile ? Outcome.DETECTED : Outcome.UNCLEAR;
    }
    TreeMap<String, String> full = model(unflushed.size());
    if (region == Region.LOG) {
      LogRecord rec = records.stream().filter(r -> r.segment.equals(target.file)
          && r.offset <= offset && offset < r.offset + r.length).findFirst().orElseThrow();
      int before = (int) records.stream().filter(r -> r.firstLsn > flushedLsn
          && records.indexOf(r) < records.indexOf(rec)).count();
      boolean said = warnings.stream().anyMatch(e -> e.getMessage().getFormattedMessage()
          .contains(fileName));
      if (rec.firstLsn > flushedLsn && said && consistent(o, model(before))) {
        return Outcome.DETECTED; // the tail was cut at the last valid record, and logged
      }
    }
    if (!consistent(o, full)) {
      System.out.println("served wrong: " + what + ": " + difference(o, full) + "; warnings "
          + warnings.stream().map(e -> e.getMessage().getFormattedMessage()).toList());
      return Outcome.SERVED_WRONG;
    }
    if (o.error != null) {
      return o.errorNamesFile ? Outcome.DETECTED : Outcome.UNCLEAR;
    }
    return verifyReports ? Outcome.DETECTED : Outcome.HARMLESS;
  }

  /** The reads that disagree with {@code m}, for the report of a served-wrong trial. */
  private static String difference(Observed o, TreeMap<String, String> m) {
    List<String> d = new ArrayList<>();
    o.state.forEach((k, v) -> {
      String got = v.isEmpty() ? null : v.substring(1);
      if (!java.util.Objects.equals(m.get(k), got)) {
        d.add("get " + k + " gave " + got + ", the model has " + m.get(k));
      }
    });
    if (d.isEmpty()) {
      d.add("the scan gave " + o.scanned.size() + " entries, the model has " + m.size());
    }
    return d.size() > 5 ? d.subList(0, 5) + " and " + (d.size() - 5) + " more" : d.toString();
  }

  /** True if every read that answered agrees with {@code m}. */
  private static boolean consistent(Observed o, TreeMap<String, String> m) {
    for (Map.Entry<String, String> e : o.state.entrySet()) {
      String expected = m.get(e.getKey());
      if (!java.util.Objects.equals(expected, e.getValue().isEmpty() ? null
          : e.getValue().substring(1))) {
        return false;
      }
    }
    if (!o.scanFailed) {
      List<String> want = new ArrayList<>();
      m.forEach((k, v) -> want.add(k + "=" + v));
      return want.equals(o.scanned);
    }
    // A scan that failed must not have returned anything out of order or wrong before failing.
    List<String> want = new ArrayList<>();
    m.forEach((k, v) -> want.add(k + "=" + v));
    return o.scanned.equals(want.subList(0, Math.min(want.size(), o.scanned.size())));
  }

  private Observed readAll(Path dir) {
    Observed o = readAll(dir, "");
    TreeMap<String, String> m = new TreeMap<>();
    o.state.forEach((k, v) -> {
      if (!v.isEmpty()) {
        m.put(k, v.substring(1));
      }
    });
    o.state.clear();
    o.state.putAll(m);
    return o;
  }

  /**
   * Opens {@code dir}, reads every key of the key space (state: key to "" when absent, "=" +
   * value when present; a key whose read failed is left out) and scans everything.
   */
  private static Observed readAll(Path dir, String fileName) {
    Observed o = new Observed();
    LsmStore store;
    try {
      store = LsmStore.open(dir, null);
    } catch (RuntimeException e) {
      o.openFailed = true;
      o.error = e.toString();
      o.errorNamesFile = String.valueOf(e.getMessage()).contains(fileName);
      return o;
    }
    try (store) {
      for (int i = 0; i < KEYS + 5; i++) {
        try {
          Optional<byte[]> v = store.get(b(key(i)));
          o.state.put(key(i), v.map(x -> "=" + new String(x, StandardCharsets.UTF_8))
              .orElse(""));
        } catch (RuntimeException e) {
          noteReadError(o, e, fileName);
        }
      }
      try (ScanCursor c = store.scan(null, null)) {
        while (c.hasNext()) {
          KeyValue kv = c.next();
          o.scanned.add(new String(kv.key(), StandardCharsets.UTF_8) + "="
              + new String(kv.value(), StandardCharsets.UTF_8));
        }
      } catch (RuntimeException e) {
        o.scanFailed = true;
        noteReadError(o, e, fileName);
      }
    } catch (RuntimeException e) {
      noteReadError(o, e, fileName); // from close
    }
    return o;
  }

  private static void noteReadError(Observed o, RuntimeException e, String fileName) {
    boolean named = e instanceof CorruptionException
        && String.valueOf(e.getMessage()).contains(fileName)
        && String.valueOf(e.getMessage()).contains("offset");
    if (o.error == null) {
      o.error = e.toString();
      o.errorNamesFile = named;
    } else {
      o.errorNamesFile &= named;
    }
  }
}
