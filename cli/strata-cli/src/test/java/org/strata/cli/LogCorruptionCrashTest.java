package org.strata.cli;

import org.strata.twophase.RecordGenerator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.KeyValue;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.ScanCursor;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.testing.LogImages;
import org.strata.lsm.wal.LogScan;

/**
 * The defect of issue 19, end to end with a real process: {@code strata load --durability sync}
 * runs in a child JVM and is killed with SIGKILL; one bit about 40% into the newest log segment is
 * flipped (bit rot under acknowledged, synced records). Then opening the store is refused (it used
 * to cut the log there and silently drop every later acknowledged batch), {@code strata verify}
 * exits 1 naming the segment, neither changes a byte, and opening with {@code skip-corrupted}
 * loses no acknowledged key but the ones in the flipped record.
 */
class LogCorruptionCrashTest {
  private static final long SEED = 11;
  private static final int RECORD_SIZE = 200;
  private static final int BATCH = 20;
  /** Records in the newest segment needed for 40% of it to fall before its last record. */
  private static final long MIN_SEGMENT_BYTES = 20L * BATCH * (RECORD_SIZE + 40);
  private static final int MAX_ROUNDS = 8;
  private static final Pattern KEY = Pattern.compile("user\\d{12}");

  @TempDir Path tmp;

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }

  /** Runs the loader until it has acknowledged {@code atLeast} records, then SIGKILLs it. */
  private static long loadAndKill(Path dir, Path config, long atLeast) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx256m",
        "-Dstrata.log.file=" + dir.resolveSibling(dir.getFileName() + ".log"), "-cp", classPath(),
            Main.class.getName(),
        "load", "--acks", "--dir", dir.toString(), "--config", config.toString(), "--records",
        "100000000",
        "--record-size", Integer.toString(RECORD_SIZE), "--key-order", "sequential", "--seed",
        Long.toString(SEED), "--durability", "sync", "--batch-size", Integer.toString(BATCH))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    AtomicLong lastAck = new AtomicLong(-1);
    Object progress = new Object();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.startsWith("acked ")) {
            lastAck.set(Long.parseLong(line.substring(6).trim()));
            synchronized (progress) {
              progress.notifyAll();
            }
          }
        }
      } catch (Exception ignored) {
        // the process died
      } finally {
        synchronized (progress) {
          progress.notifyAll();
        }
      }
    });
    reader.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    synchronized (progress) {
      while (lastAck.get() < atLeast && p.isAlive() && System.nanoTime() < deadline) {
        progress.wait(1000);
      }
    }
    assertThat(p.isAlive()).as("the loader must still be running when it is killed").isTrue();
    p.destroyForcibly(); // SIGKILL
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    reader.join(10_000);
    return lastAck.get();
  }

  @Test
  void aFlippedBitUnderAcknowledgedRecordsIsRefusedReportedAndSkippable() throws Exception {
    Path config = tmp.resolve("crash.json");
    Files.writeString(config, """
        {"merge-policy": {"name": "constant", "parameters": {"num-components": "3"}},
         "memory-component": {"size": "1MB", "count": 2},
         "log": {"durability": "sync"}}
        """);
    // Right after a flush the newest segment may hold a single record; then 40% of it is in its
    // last record, a torn tail by definition. Start over in a fresh store until it is long enough
    // (a fresh store each time, so every acknowledged key was written exactly once).
    long acked = 0;
    Path dir = null;
    Path seg = null;
    for (int round = 0; round < MAX_ROUNDS && seg == null; round++) {
      dir = tmp.resolve("store-" + round);
      acked = loadAndKill(dir, config, 5000);
      seg = LogImages.newestSegment(dir.resolve("wal"));
      if (Files.size(seg) < MIN_SEGMENT_BYTES) {
        seg = null;
      }
    }
    assertThat(seg).as("a newest segment of at least %d bytes", MIN_SEGMENT_BYTES).isNotNull();
    byte[] original = Files.readAllBytes(seg);
    // A byte of the first key at or after 40% of the segment: inside a record of writes, never in
    // one of the force marks that follow each forced batch (a mark holds no keys).
    Matcher near = KEY.matcher(new String(original, StandardCharsets.ISO_8859_1));
    assertThat(near.find((int) (original.length * 0.4))).as("a key after 40% of the segment")
        .isTrue();
    int at = near.start() + 4;
    byte[] flipped = original.clone();
    flipped[at] ^= 0x08;
    Files.write(seg, flipped);

    // The one bad record, and the keys it held.
    assertThat(acked).isGreaterThanOrEqualTo(5000);
    List<LogScan.Damage> damages = LogScan.read(dir.resolve("wal"), 0).damages();
    // The kill may also have cut the record being written (a write of a regular file stops
    // between pages at SIGKILL): a torn tail at the end of the newest segment, never acknowledged.
    Path newest = seg;
    assertThat(damages).filteredOn(d -> d.kind() != LogScan.DamageKind.CORRUPTION)
        .hasSizeLessThanOrEqualTo(1).allSatisfy(d -> {
          assertThat(d.kind()).isEqualTo(LogScan.DamageKind.TORN_TAIL);
          assertThat(d.file()).isEqualTo(newest);
          assertThat(d.offset()).isGreaterThan(at);
          assertThat(d.recordsAfter()).isZero();
        });
    List<LogScan.Damage> corrupt = damages.stream()
        .filter(d -> d.kind() == LogScan.DamageKind.CORRUPTION).toList();
    assertThat(corrupt).hasSize(1);
    LogScan.Damage bad = corrupt.get(0);
    assertThat(bad.offset()).isLessThanOrEqualTo(at).isGreaterThan(at - bad.length() - 1);
    Set<String> lost = new TreeSet<>();
    Matcher m = KEY.matcher(new String(original, bad.offset(), bad.length(),
        StandardCharsets.ISO_8859_1));
    while (m.find()) {
      lost.add(m.group());
    }
    assertThat(lost).hasSize(BATCH);
    System.out.printf("log corruption crash test: %d records acknowledged; flipped byte %d of %s"
        + " (%d bytes); the bad record at %d holds %s..%s; %d intact records follow%n", acked, at,
        seg.getFileName(), original.length, bad.offset(), ((TreeSet<String>) lost).first(),
        ((TreeSet<String>) lost).last(), bad.recordsAfter());

    // Refused by default, and nothing changes.
    Path store = dir;
    Map<String, String> before = LogImages.snapshot(store);
    Path segment = seg;
    assertThatThrownBy(() -> LsmStore.open(store, null))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(segment.toString())
        .hasMessageContaining("at offset " + bad.offset())
        .hasMessageContaining(bad.recordsAfter() + " intact records");
    assertThat(LogImages.snapshot(store)).isEqualTo(before);
    CliTest.Result v = CliTest.run("verify", "--dir", store.toString());
    assertThat(v.code()).as(v.out() + v.err()).isEqualTo(1);
    assertThat(v.out()).contains("FAULT: " + seg + " at offset " + bad.offset());
    assertThat(LogImages.snapshot(store)).isEqualTo(before);

    // skip-corrupted: every acknowledged key but the flipped record's, with its exact value.
    List<String> missing = new ArrayList<>();
    StoreConfig written = StoreConfigJson.read(store.resolve("config.json"));
    try (LsmStore s = LsmStore.open(store,
        written.withLog(written.log().withRecoveryMode(LogRecoveryMode.SKIP_CORRUPTED)));
        ScanCursor c = s.scan(null, null)) {
      KeyValue kv = c.hasNext() ? c.next() : null;
      for (long id = 0; id < acked; id++) {
        String want = RecordGenerator.key(id);
        boolean here = kv != null && new String(kv.key(), StandardCharsets.UTF_8).equals(want);
        if (!here) {
          missing.add(want);
          continue;
        }
        assertThat(Arrays.equals(kv.value(), RecordGenerator.value(id, SEED, RECORD_SIZE)))
            .as("value of %s", want).isTrue();
        kv = c.hasNext() ? c.next() : null;
      }
    }
    assertThat(missing).as("exactly the flipped record's keys are missing")
        .containsExactlyElementsOf(lost);
    CliTest.Result after = CliTest.run("verify", "--dir", store.toString());
    assertThat(after.code()).as(after.out()).isZero();
  }
}
