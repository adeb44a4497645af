package org.strata.lsm.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.io.FileIo;

/**
 * The write-ahead log: replay, segment truncation, and what each {@link LogRecoveryMode} does with
 * a torn tail and with a flipped byte that has intact records after it.
 */
class WriteAheadLogTest {
  @TempDir Path dir;

  private static LogOp put(String k, String v) {
    return new LogOp(k.getBytes(StandardCharsets.UTF_8), v.getBytes(StandardCharsets.UTF_8));
  }

  private WriteAheadLog open(LogRecoveryMode mode, long flushedLsn, List<String> seen) {
    return WriteAheadLog.open(dir, Durability.SYNC, 10, FileIo.standard(), mode, flushedLsn,
        (lsn, op) -> seen.add(lsn + ":" + new String(op.key(), StandardCharsets.UTF_8)
            + "=" + (op.isDelete() ? "<del>" : new String(op.value(), StandardCharsets.UTF_8))));
  }

  private List<String> replay(LogRecoveryMode mode, long flushedLsn) {
    List<String> seen = new ArrayList<>();
    open(mode, flushedLsn, seen).close();
    return seen;
  }

  private List<String> replay(long flushedLsn) {
    return replay(LogRecoveryMode.TOLERATE_TORN_TAIL, flushedLsn);
  }

  private Path[] files() throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toArray(Path[]::new);
    }
  }

  private Path[] segments() throws Exception {
    return Arrays.stream(files()).filter(p -> p.getFileName().toString().endsWith(".log"))
        .toArray(Path[]::new);
  }

  /** Every file's name and bytes, to show that a refused open changed nothing. */
  private Map<String, List<Byte>> snapshot() throws Exception {
    Map<String, List<Byte>> m = new TreeMap<>();
    for (Path p : files()) {
      byte[] b = Files.readAllBytes(p);
      List<Byte> l = new ArrayList<>(b.length);
      for (byte x : b) {
        l.add(x);
      }
      m.put(p.getFileName().toString(), l);
    }
    return m;
  }

  /**
   * Writes {@code records} records of one operation each ({@code k<i>=v<i>}, LSN i + 1) into one
   * segment, written out but never forced, and leaves the log as a killed process would: so the
   * log has certified none of them as forced, and damage to the last one is what a crash leaves.
   * Returns the offset of each record in the segment.
   */
  private int[] writeOneSegment(int records) throws Exception {
    WriteAheadLog wal = open(LogRecoveryMode.TOLERATE_TORN_TAIL, 0, new ArrayList<>());
    for (int i = 0; i < records; i++) {
      wal.append(List.of(put("k" + i, "v" + i + "-" + "x".repeat(i % 7))));
    }
    wal.writeOutNow();
    wal.closeAsIfKilled();
    Path seg = segments()[0];
    byte[] data = Files.readAllBytes(seg);
    int[] offsets = new int[records];
    int pos = SegmentHeader.SIZE;
    for (int i = 0; i < records; i++) {
      offsets[i] = pos;
      pos = LogRecordCodec.validate(data, pos, data.length);
    }
    assertThat(pos).isEqualTo(data.length);
    return offsets;
  }

  private static void flipByte(Path file, int offset) throws Exception {
    byte[] data = Files.readAllBytes(file);
    data[offset] ^= 0x10;
    Files.write(file, data);
  }

  private static List<String> expected(int from, int to) {
    List<String> l = new ArrayList<>();
    for (int i = from; i < to; i++) {
      l.add((i + 1) + ":k" + i + "=v" + i + "-" + "x".repeat(i % 7));
    }
    return l;
  }

  @Test
  void replaysRecordsAboveTheFlushedLsnAcrossSegments() {
    WriteAheadLog wal = open(LogRecoveryMode.TOLERATE_TORN_TAIL, 0, new ArrayList<>());
    assertThat(wal.append(List.of(put("a", "1")))).isEqualTo(1);
    assertThat(wal.append(List.of(put("b", "2"), new LogOp("a".getBytes(), null)))).isEqualTo(3);
    wal.roll();
    wal.append(List.of(put("c", "3")));
    wal.syncAll();
    wal.close();
    assertThat(replay(0)).containsExactly("1:a=1", "2:b=2", "3:a=<del>", "4:c=3");
    assertThat(replay(2)).containsExactly("3:a=<del>", "4:c=3");
  }

  @Test
  void tornTailOfTheLastSegmentIsCutAndLaterAppendsSurvive() throws Exception {
    WriteAheadLog wal = open(LogRecoveryMode.TOLERATE_TORN_TAIL, 0, new ArrayList<>());
    wal.append(List.of(put("a", "1")));
    wal.syncAll();
    wal.append(List.of(put("b", "2"))); // written, never forced or acknowledged: then a kill
    wal.writeOutNow();
    wal.closeAsIfKilled();
    Path seg = segments()[segments().length - 1];
    long size = Files.size(seg);
    try (var ch = java.nio.channels.FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(size - 3); // a crash in the middle of the second record
    }
    List<String> seen = new ArrayList<>();
    wal = open(LogRecoveryMode.TOLERATE_TORN_TAIL, 0, seen);
    assertThat(seen).containsExactly("1:a=1");
    wal.append(List.of(put("c", "3")));
    wal.syncAll();
    wal.close();
    assertThat(replay(0)).containsExactly("1:a=1", "2:c=3");
  }

  @Test
  void zeroBytesAfterTheLastRecordAreATornTailInEveryModeButAbsoluteConsistency()
      throws Exception {
    writeOneSegment(10);
    Path seg = segments()[0];
    long size = Files.size(seg);
    Files.write(seg, new byte[4096], StandardOpenOption.APPEND); // preallocated, never written
    Map<String, List<Byte>> before = snapshot();
    assertThatThrownBy(() -> replay(LogRecoveryMode.ABSOLUTE_CONSISTENCY, 0))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(seg.toString())
        .hasMessageContaining("offset " + size)
        .hasMessageContaining("torn")
        .hasMessageContaining("tolerate-torn-tail");
    assertThat(snapshot()).isEqualTo(before);
    for (LogRecoveryMode m : List.of(LogRecoveryMode.TOLERATE_TORN_TAIL,
        LogRecoveryMode.POINT_IN_TIME, LogRecoveryMode.SKIP_CORRUPTED)) {
      assertThat(replay(m, 0)).as("mode %s", m).isEqualTo(expected(0, 10));
      assertThat(Files.size(seg)).isEqualTo(size);
    }
    assertThat(replay(LogRecoveryMode.ABSOLUTE_CONSISTENCY, 0)).isEqualTo(expected(0, 10));
  }

  @Test
  void flippedByteWithIntactRecordsAfterItIsRefusedByDefaultAndChangesNothing()
      throws Exception {
    int[] offsets = writeOneSegment(100);
    Path seg = segments()[0];
    flipByte(seg, offsets[40] + 20); // inside record 40 of 100, in the newest (only) segment
    Map<String, List<Byte>> before = snapshot();
    for (LogRecoveryMode m : List.of(LogRecoveryMode.TOLERATE_TORN_TAIL,
        LogRecoveryMode.ABSOLUTE_CONSISTENCY)) {
      assertThatThrownBy(() -> replay(m, 0)).as("mode %s", m)
          .isInstanceOf(CorruptionException.class)
          .hasMessageContaining(seg.toString())
          .hasMessageContaining("at offset " + offsets[40])
          .hasMessageContaining("59 intact records (59 operations) follow")
          .hasMessageContaining("skip-corrupted")
          .hasMessageContaining("point-in-time")
          .satisfies(e -> assertThat(((CorruptionException) e).offset()).isEqualTo(offsets[40]));
      assertThat(snapshot()).as("a refused open changes nothing").isEqualTo(before);
    }
  }

  @Test
  void skipCorruptedReplaysEveryIntactRecordAndLosesOnlyTheFlippedOne() throws Exception {
    int[] offsets = writeOneSegment(100);
    flipByte(segments()[0], offsets[40] + 20);
    List<String> want = new ArrayList<>(expected(0, 40));
    want.addAll(expected(41, 100));
    List<String> seen = new ArrayList<>();
    WriteAheadLog wal = open(LogRecoveryMode.SKIP_CORRUPTED, 0, seen);
    assertThat(seen).isEqualTo(want);
    assertThat(wal.append(List.of(put("new", "1")))).isEqualTo(101);
    wal.close();
    // The bad bytes are still there until a flush makes the segment obsolete: the default mode
    // still refuses, skip-corrupted replays the same again plus the new write.
    assertThatThrownBy(() -> replay(0)).isInstanceOf(CorruptionException.class);
    want.add("101:new=1");
    assertThat(replay(LogRecoveryMode.SKIP_CORRUPTED, 0)).isEqualTo(want);
    // Once everything up to the new write is flushed, the bad bytes lose nothing: any mode opens.
    assertThat(replay(LogRecoveryMode.TOLERATE_TORN_TAIL, 101)).isEmpty();
  }

  @Test
  void pointInTimeStopsAtTheFlipSetsTheRestAsideAndNeverReusesItsNumbers() throws Exception {
    WriteAheadLog w = open(LogRecoveryMode.TOLERATE_TORN_TAIL, 0, new ArrayList<>());
    for (int i = 0; i < 100; i++) {
      w.append(List.of(put("k" + i, "v" + i + "-" + "x".repeat(i % 7))));
      if (i == 59) {
        w.roll(); // records 0-59 in the first segment, 60-99 in the second
      }
    }
    w.close();
    Path first = segments()[0];
    Path second = segments()[1];
    byte[] firstBytes = Files.readAllBytes(first);
    byte[] secondBytes = Files.readAllBytes(second);
    int pos = SegmentHeader.SIZE;
    for (int i = 0; i < 40; i++) {
      pos = LogRecordCodec.validate(firstBytes, pos, firstBytes.length);
    }
    int bad = pos; // record 40
    flipByte(first, bad + 9);

    List<String> seen = new ArrayList<>();
    WriteAheadLog wal = open(LogRecoveryMode.POINT_IN_TIME, 0, seen);
    assertThat(seen).isEqualTo(expected(0, 40));
    // New writes start above every set-aside record (the last was LSN 100).
    assertThat(wal.append(List.of(put("after", "1")))).isEqualTo(101);
    wal.close();

    Path tail = dir.resolve(first.getFileName() + ".corrupt-" + bad);
    Path later = dir.resolve(second.getFileName() + ".corrupt-0");
    assertThat(tail).exists();
    assertThat(later).exists();
    byte[] flipped = Arrays.copyOfRange(firstBytes, bad, firstBytes.length);
    flipped[9] ^= 0x10;
    assertThat(Files.readAllBytes(tail)).isEqualTo(flipped);
    assertThat(Files.readAllBytes(later)).isEqualTo(secondBytes);
    assertThat(Files.size(first)).isEqualTo(bad);
    assertThat(second).doesNotExist();

    // A second open, in any mode, is clean: it sees the records before the flip and the new write.
    List<String> want = new ArrayList<>(expected(0, 40));
    want.add("101:after=1");
    for (LogRecoveryMode m : LogRecoveryMode.values()) {
      assertThat(replay(m, 0)).as("mode %s", m).isEqualTo(want);
    }
  }

  @Test
  void pointInTimeWithATornTailOnlyCutsTheTail() throws Exception {
    int[] offsets = writeOneSegment(20);
    Path seg = segments()[0];
    try (var ch = java.nio.channels.FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(offsets[19] + 5);
    }
    assertThat(replay(LogRecoveryMode.POINT_IN_TIME, 0)).isEqualTo(expected(0, 19));
    assertThat(Files.size(seg)).isEqualTo(offsets[19]);
    assertThat(Arrays.stream(files()).map(p -> p.getFileName().toString()))
        .noneMatch(n -> n.contains("corrupt"));
  }

  @Test
  void corruptionInAnEarlierSegmentIsHandledByTheSameModes() throws Exception {
    WriteAheadLog wal = open(LogRecoveryMode.TOLERATE_TORN_TAIL, 0, new ArrayList<>());
    wal.append(List.of(put("a", "1")));
    wal.append(List.of(put("b", "2")));
    wal.roll();
    wal.append(List.of(put("c", "3")));
    wal.close();
    Path first = segments()[0];
    byte[] data = Files.readAllBytes(first);
    data[data.length - 1] ^= 1; // the last record of a segment that is not the last one
    Files.write(first, data);
    assertThatThrownBy(() -> replay(0)).isInstanceOf(CorruptionException.class)
        .hasMessageContaining(first.getFileName().toString())
        .hasMessageContaining("1 intact records (1 operations) follow");
    assertThat(replay(LogRecoveryMode.SKIP_CORRUPTED, 0)).containsExactly("1:a=1", "3:c=3");
    assertThat(replay(LogRecoveryMode.POINT_IN_TIME, 0)).containsExactly("1:a=1");
    assertThat(replay(0)).containsExactly("1:a=1");
  }

  @Test
  void badBytesWhoseOperationsAreAllFlushedLoseNothingAndDoNotBlockTheOpen() throws Exception {
    WriteAheadLog wal = open(LogRecoveryMode.TOLERATE_TORN_TAIL, 0, new ArrayList<>());
    wal.append(List.of(put("a", "1")));
    wal.append(List.of(put("b", "2")));
    wal.roll();
    wal.append(List.of(put("c", "3")));
    wal.close();
    Path first = segments()[0];
    flipByte(first, SegmentHeader.SIZE + 10); // record 1; LSN 1 and 2 are in disk components
    assertThat(replay(LogRecoveryMode.TOLERATE_TORN_TAIL, 2)).containsExactly("3:c=3");
    assertThat(replay(LogRecoveryMode.POINT_IN_TIME, 2)).containsExactly("3:c=3");
    assertThat(files()).noneMatch(p -> p.getFileName().toString().contains("corrupt"));
    assertThatThrownBy(() -> replay(LogRecoveryMode.ABSOLUTE_CONSISTENCY, 2))
        .isInstanceOf(CorruptionException.class);
    // The bad record is followed by LSN 2, so it held LSN 1: with nothing flushed, corruption.
    assertThat(replay(LogRecoveryMode.TOLERATE_TORN_TAIL, 1)).containsExactly("2:b=2", "3:c=3");
    assertThatThrownBy(() -> replay(LogRecoveryMode.TOLERATE_TORN_TAIL, 0))
        .isInstanceOf(CorruptionException.class);
  }

  @Test
  void aStaleCopyOfAnEarlierRecordInATornTailIsNotTakenForAnIntactRecord() throws Exception {
    int[] offsets = writeOneSegment(10);
    Path seg = segments()[0];
    byte[] data = Files.readAllBytes(seg);
    // A torn last record, then old bytes that happen to hold an intact copy of record 3 (as a
    // reused disk block might): its sequence number is not above the last good one, so nothing
    // intact follows the tear and it is a torn tail, not corruption.
    byte[] torn = Arrays.copyOf(data, offsets[9] + 7);
    byte[] stale = Arrays.copyOfRange(data, offsets[3], offsets[4]);
    byte[] image = Arrays.copyOf(torn, torn.length + 13 + stale.length);
    System.arraycopy(stale, 0, image, torn.length + 13, stale.length);
    Files.write(seg, image);
    assertThat(replay(0)).isEqualTo(expected(0, 9));
    assertThat(Files.size(seg)).isEqualTo(offsets[9]);
  }

  @Test
  void aWholeLastRecordThatFailsItsChecksumIsATornTailThatSaysItMayBeCorruption()
      throws Exception {
    int[] offsets = writeOneSegment(5);
    Path seg = segments()[0];
    flipByte(seg, offsets[4] + 22); // inside the last record, which is whole
    LogScan.Damage d = LogScan.read(dir, 0).damages().get(0);
    assertThat(d.kind()).isEqualTo(LogScan.DamageKind.TORN_TAIL);
    assertThat(d.lengthFits()).isTrue();
    assertThat(d.describe()).contains("its length fits the file");
    try (var ch = java.nio.channels.FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(Files.size(seg) - 1); // now it is also cut short: an ordinary torn write
    }
    d = LogScan.read(dir, 0).damages().get(0);
    assertThat(d.lengthFits()).isFalse();
    assertThat(d.describe()).doesNotContain("length fits");
  }

  @Test
  void truncateDeletesOnlyFullyFlushedSegments() {
    WriteAheadLog wal = WriteAheadLog.open(dir, Durability.NONE, 10, FileIo.standard(),
        LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (l, o) -> { });
    wal.append(List.of(put("a", "1"))); // lsn 1
    wal.roll();
    wal.append(List.of(put("b", "2"))); // lsn 2
    wal.roll();
    wal.append(List.of(put("c", "3"))); // lsn 3
    wal.completeRolls(); // as a flush does before it lists its component (and before truncation)
    assertThat(wal.segmentCount()).isEqualTo(3);
    wal.truncateUpTo(1);
    assertThat(wal.segmentCount()).isEqualTo(2);
    wal.truncateUpTo(3);
    assertThat(wal.segmentCount()).isEqualTo(1); // the current segment stays
    wal.close();
    assertThat(replay(1)).containsExactly("3:c=3");
  }
}
