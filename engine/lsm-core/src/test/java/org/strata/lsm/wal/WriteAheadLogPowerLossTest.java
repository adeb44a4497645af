package org.strata.lsm.wal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.testing.PowerLossFileIo;

/**
 * What the log keeps through a machine crash, in every durability mode that logs: the log's files
 * copied with only their forced bytes ({@link PowerLossFileIo}) and replayed as recovery would.
 * Whatever the mode, {@code sync} makes every operation before it survive, a flush's {@code
 * holdThrough} makes its component's operations survive, and what survives is a prefix of the
 * operations. Under {@code none} a seal once closed the old segment unforced, so a later {@code
 * sync} forced only the new segment: the operations before the seal were lost while later ones
 * survived. Under {@code unlogged} nothing reaches the files at all.
 */
class WriteAheadLogPowerLossTest {
  private static final byte[] VALUE = new byte[4096];

  @TempDir Path tmp;
  private int images;

  private static WriteAheadLog open(Path dir, Durability durability, PowerLossFileIo io) {
    // A group commit interval of an hour: every force in these tests is one the test asks for.
    return WriteAheadLog.open(dir, durability, 3_600_000, io, LogRecoveryMode.TOLERATE_TORN_TAIL,
        0, (lsn, op) -> { });
  }

  /** The sequence numbers a recovery after a machine crash now would replay, in order. */
  private List<Long> afterPowerLoss(PowerLossFileIo io, Path dir) throws IOException {
    Path image = tmp.resolve("image-" + images++);
    io.image(dir, image);
    List<Long> lsns = new ArrayList<>();
    WriteAheadLog.replay(image, Durability.NONE, 10, org.strata.lsm.io.FileIo.standard(),
        LogRecoveryMode.TOLERATE_TORN_TAIL, 0, 0, (lsn, op) -> lsns.add(lsn));
    return lsns;
  }

  private static long appendRecords(WriteAheadLog wal, int n, String prefix) {
    long last = 0;
    for (int i = 0; i < n; i++) {
      last = wal.append(List.of(new LogOp((prefix + i).getBytes(), VALUE)));
    }
    return last;
  }

  private static void assertPrefix(List<Long> lsns) {
    for (int i = 0; i < lsns.size(); i++) {
      assertThat(lsns.get(i)).as("a machine crash keeps a prefix: operation %d", i + 1)
          .isEqualTo(i + 1L);
    }
  }

  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"SYNC", "GROUP", "NONE"})
  void syncCoversTheSegmentASealEnded(Durability durability) throws IOException {
    Path dir = tmp.resolve("wal");
    PowerLossFileIo io = new PowerLossFileIo();
    WriteAheadLog wal = open(dir, durability, io);
    try {
      long beforeSeal = appendRecords(wal, 50, "a");
      wal.roll(); // a seal
      long last = appendRecords(wal, 5, "b");
      wal.sync(last);
      List<Long> kept = afterPowerLoss(io, dir);
      assertPrefix(kept);
      assertThat(kept).as("every operation before the sync, those before the seal included")
          .hasSize((int) last);
      assertThat(beforeSeal).isLessThan(last);
    } finally {
      wal.close();
    }
  }

  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"SYNC", "GROUP", "NONE"})
  void aFlushForcesTheLogThroughItsComponent(Durability durability) throws IOException {
    Path dir = tmp.resolve("wal");
    PowerLossFileIo io = new PowerLossFileIo();
    WriteAheadLog wal = open(dir, durability, io);
    try {
      long sealed = appendRecords(wal, 30, "a");
      wal.roll();
      appendRecords(wal, 3, "b");
      // A dataset's indexes share the log: one index's flush of the sealed component must not
      // hold an operation a machine crash can take from the log for the others.
      wal.holdThrough(sealed);
      List<Long> kept = afterPowerLoss(io, dir);
      assertPrefix(kept);
      assertThat(kept.size()).isGreaterThanOrEqualTo((int) sealed);
      // Even with no roll asked for (indexes sealed before the roll was marked).
      long more = appendRecords(wal, 4, "c");
      wal.holdThrough(more);
      assertThat(afterPowerLoss(io, dir).size()).isGreaterThanOrEqualTo((int) more);
    } finally {
      wal.close();
    }
  }

  @Test
  void underNoneTheLogCarriesOutARollByItself() throws Exception {
    Path dir = tmp.resolve("wal");
    PowerLossFileIo io = new PowerLossFileIo();
    WriteAheadLog wal = open(dir, Durability.NONE, io);
    try {
      CountDownLatch created = new CountDownLatch(1);
      io.onCreate(p -> created.countDown());
      long sealed = appendRecords(wal, 10, "a");
      wal.roll();
      // No sync, no flush: under none nothing else would force for as long as the writes go on,
      // and the buffer would grow meanwhile (writers do not write it out while a roll is pending).
      assertThat(created.await(60, TimeUnit.SECONDS)).as("the log created the new segment")
          .isTrue();
      assertThat(afterPowerLoss(io, dir)).as("the old segment was forced before").hasSize(
          (int) sealed);
    } finally {
      wal.close();
    }
  }

  /**
   * Random appends, seals, write-outs of a large buffer, syncs and flushes; after each step a
   * machine crash must keep a prefix of the operations that holds at least every operation a sync
   * or a flush covered.
   */
  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"SYNC", "GROUP", "NONE"})
  void aMachineCrashAtAnyStepKeepsAPrefixWithEverythingForced(Durability durability)
      throws IOException {
    for (int seed = 0; seed < 6; seed++) {
      Path dir = tmp.resolve("wal-" + seed);
      PowerLossFileIo io = new PowerLossFileIo();
      WriteAheadLog wal = open(dir, durability, io);
      SplittableRandom r = new SplittableRandom(seed);
      long promised = 0;
      try {
        for (int step = 0; step < 30; step++) {
          int op = r.nextInt(10);
          if (op < 5) {
            appendRecords(wal, 1 + r.nextInt(60), "s" + step + "-");
          } else if (op == 5) {
            wal.roll();
          } else if (op == 6) {
            wal.writeOutIfLarge();
          } else if (op == 7) {
            long lsn = wal.lastLsn();
            wal.sync(lsn);
            promised = Math.max(promised, lsn);
          } else if (op == 8) {
            long lsn = wal.lastLsn();
            wal.holdThrough(lsn);
            promised = Math.max(promised, lsn);
          } else {
            wal.completeRolls();
          }
          List<Long> kept = afterPowerLoss(io, dir);
          assertPrefix(kept);
          assertThat((long) kept.size()).as("seed %d step %d: what sync and flushes forced",
              seed, step).isGreaterThanOrEqualTo(promised);
        }
      } finally {
        wal.close();
      }
    }
  }

  /**
   * Under {@code unlogged} appends only take their sequence numbers: nothing reaches the log's
   * files, forced or not, so a recovery replays nothing; the numbers go on from the last.
   */
  @Test
  void underUnloggedAppendsTakeNumbersAndLogNothing() throws IOException {
    Path dir = tmp.resolve("wal");
    PowerLossFileIo io = new PowerLossFileIo();
    WriteAheadLog wal = open(dir, Durability.UNLOGGED, io);
    try {
      long last = appendRecords(wal, 50, "a");
      assertThat(last).isEqualTo(50);
      wal.roll();
      assertThat(appendRecords(wal, 5, "b")).isEqualTo(55);
      wal.sync(55);
      wal.holdThrough(55);
      assertThat(wal.appendedBytes()).isZero();
      assertThat(afterPowerLoss(io, dir)).as("operations a recovery replays").isEmpty();
      // 55 appends of 4 KB values, had they been logged, would have written over 220 KB.
      try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir)) {
        long bytes = files.mapToLong(f -> f.toFile().length()).sum();
        assertThat(bytes).as("bytes of the log directory").isLessThan(4096);
      }
    } finally {
      wal.close();
    }
  }
}
