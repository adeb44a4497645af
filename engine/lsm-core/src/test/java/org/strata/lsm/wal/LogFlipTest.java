package org.strata.lsm.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.io.FileIo;

/**
 * Seeded model test of log recovery: a random log (random segments, batches, keys, values and
 * deletes) gets one random bit flipped; then each recovery mode must lose exactly what it documents
 * and nothing else. A single-bit flip damages exactly one record R (CRC32C detects every single-bit
 * error), so: skip-corrupted replays every operation but R's; point-in-time replays exactly the
 * records before R; tolerate-torn-tail opens (losing R) only if R is the last record of the last
 * segment (a flip there looks just like a torn write) and refuses otherwise; absolute-consistency
 * always refuses. Each run prints its seed; rerun one with {@code -Dlog.flip.seed=N}.
 */
class LogFlipTest {
  @TempDir Path tmp;

  /** One record as written: its segment, offset and operations ("lsn:key=value"). */
  private record Written(int segment, int offset, int length, List<String> ops) {}

  static LongStream seeds() {
    String one = System.getProperty("log.flip.seed");
    return one != null ? LongStream.of(Long.parseLong(one)) : LongStream.range(1, 81);
  }

  private static String render(long lsn, LogOp op) {
    HexFormat hex = HexFormat.of();
    return lsn + ":" + hex.formatHex(op.key()) + "=" + (op.isDelete() ? "<del>"
        : hex.formatHex(op.value()));
  }

  private static byte[] bytes(Random rnd, int max) {
    byte[] b = new byte[rnd.nextInt(max + 1)];
    rnd.nextBytes(b);
    return b;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void oneFlippedBitCostsExactlyWhatEachModeDocuments(long seed) throws Exception {
    System.out.println("LogFlipTest seed " + seed);
    Random rnd = new Random(seed);
    Path origin = tmp.resolve("origin");
    Files.createDirectories(origin);
    WriteAheadLog wal = WriteAheadLog.open(origin, Durability.NONE, 10, FileIo.standard(),
        LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (l, o) -> { });
    List<Written> written = new ArrayList<>();
    int segments = 1 + rnd.nextInt(3);
    List<List<List<LogOp>>> batches = new ArrayList<>();
    for (int s = 0; s < segments; s++) {
      List<List<LogOp>> inSegment = new ArrayList<>();
      int records = 5 + rnd.nextInt(40);
      for (int r = 0; r < records; r++) {
        List<LogOp> ops = new ArrayList<>();
        int n = 1 + rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
          byte[] key = bytes(rnd, 24);
          ops.add(new LogOp(key, rnd.nextInt(6) == 0 ? null : bytes(rnd, 300)));
        }
        wal.append(ops);
        inSegment.add(ops);
      }
      batches.add(inSegment);
      if (s + 1 < segments) {
        wal.roll();
      }
    }
    wal.close();
    Path[] segs;
    try (Stream<Path> s = Files.list(origin)) {
      segs = s.filter(p -> p.getFileName().toString().startsWith("wal-")).sorted()
          .toArray(Path[]::new);
    }
    assertThat(segs).hasSize(segments);
    long lsn = 1;
    for (int s = 0; s < segments; s++) {
      byte[] data = Files.readAllBytes(segs[s]);
      int pos = SegmentHeader.SIZE;
      for (List<LogOp> ops : batches.get(s)) {
        int next = LogRecordCodec.validate(data, pos, data.length);
        List<String> rendered = new ArrayList<>();
        for (LogOp op : ops) {
          rendered.add(render(lsn++, op));
        }
        written.add(new Written(s, pos, next - pos, rendered));
        pos = next;
      }
      assertThat(pos).isEqualTo(data.length);
    }

    // Flip one bit of one record.
    Written hit = written.get(rnd.nextInt(written.size()));
    int at = hit.offset() + rnd.nextInt(hit.length());
    byte[] data = Files.readAllBytes(segs[hit.segment()]);
    data[at] ^= (byte) (1 << rnd.nextInt(8));
    Files.write(segs[hit.segment()], data);
    int r = written.indexOf(hit);
    boolean lastRecord = r == written.size() - 1;
    List<String> before = new ArrayList<>();
    List<String> allButHit = new ArrayList<>();
    for (int i = 0; i < written.size(); i++) {
      if (i < r) {
        before.addAll(written.get(i).ops());
      }
      if (i != r) {
        allButHit.addAll(written.get(i).ops());
      }
    }
    String where = "seed " + seed + ": flipped byte " + at + " of segment " + hit.segment()
        + ", record " + r + " of " + written.size();

    assertThat(replay(origin, "skip", LogRecoveryMode.SKIP_CORRUPTED)).as(where)
        .isEqualTo(allButHit);
    Path pit = tmp.resolve("pit");
    assertThat(replay(origin, "pit", LogRecoveryMode.POINT_IN_TIME)).as(where).isEqualTo(before);
    // Point-in-time leaves a clean log: a second open in the strictest mode sees the same.
    assertThat(reopen(pit, LogRecoveryMode.ABSOLUTE_CONSISTENCY)).as(where).isEqualTo(before);
    // Even the last record: the log was closed, so its catalogue certifies every byte as forced,
    // and a damaged last record is corruption, not the torn write a crash leaves.
    assertThatThrownBy(() -> replay(origin, "default", LogRecoveryMode.TOLERATE_TORN_TAIL))
        .as(where + (lastRecord ? " (the last record)" : ""))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(segs[hit.segment()].getFileName().toString())
        .hasMessageContaining("at offset " + hit.offset());
    assertThatThrownBy(() -> replay(origin, "absolute", LogRecoveryMode.ABSOLUTE_CONSISTENCY))
        .as(where).isInstanceOf(CorruptionException.class);
  }

  /** Replays a fresh copy of {@code origin} named {@code name} under {@code mode}. */
  private List<String> replay(Path origin, String name, LogRecoveryMode mode) throws Exception {
    Path copy = tmp.resolve(name);
    Files.createDirectories(copy);
    try (Stream<Path> s = Files.list(origin)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.copy(p, copy.resolve(p.getFileName().toString()));
      }
    }
    return reopen(copy, mode);
  }

  private static List<String> reopen(Path dir, LogRecoveryMode mode) {
    List<String> seen = new ArrayList<>();
    WriteAheadLog.open(dir, Durability.NONE, 10, FileIo.standard(), mode, 0,
        (lsn, op) -> seen.add(render(lsn, op))).close();
    return seen;
  }
}
