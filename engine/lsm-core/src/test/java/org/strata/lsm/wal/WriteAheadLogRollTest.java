package org.strata.lsm.wal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.testing.FaultInjectingFileIo;

/**
 * A segment roll (at every seal of a memory component) does not make the sealing writer wait for a
 * force: under {@code group} and {@code sync} it is marked in the buffer and carried out by the
 * next force, which forces the old segment before it creates the new one. Checked on what happened
 * while a force was held inside the file by a latch, never on how long anything took.
 */
class WriteAheadLogRollTest {
  private static final byte[] VALUE = new byte[4096];

  @TempDir Path dir;

  private static Path segmentPath(Path dir, long firstLsn) {
    return dir.resolve(String.format(Locale.ROOT, "wal-%020d.log", firstLsn));
  }

  @Test
  void aRollDuringAForceReturnsAndTheNextForceEndsTheOldSegmentFirst() throws Exception {
    ForceHold hold = new ForceHold();
    AtomicReference<Path> newSegment = new AtomicReference<>();
    List<String> forces = new ArrayList<>();
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    io.onForce(".log", p -> {
      Path next = newSegment.get();
      synchronized (forces) {
        forces.add(p.getFileName() + (next != null && Files.exists(next)
            ? " (new segment exists)" : ""));
      }
      hold.accept(p);
    });
    // A group commit interval of an hour: every force in this test is one the test makes.
    WriteAheadLog wal = WriteAheadLog.open(dir, Durability.GROUP, 3_600_000, io,
        LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (lsn, op) -> { });
    Path oldSegment = segmentPath(dir, 1);
    assertThat(oldSegment).exists();
    long a = wal.append(List.of(new LogOp("a".getBytes(), VALUE)));

    // A sync that stops inside its force, as a group commit in a slow disk would.
    hold.hold();
    Thread syncer = new Thread(() -> wal.sync(a), "test-sync");
    syncer.start();
    assertThat(hold.awaitHeld()).as("the sync reached its force").isTrue();

    // The sealing writer appends and rolls while that force is held.
    long b = wal.append(List.of(new LogOp("b".getBytes(), VALUE)));
    newSegment.set(segmentPath(dir, b + 1));
    Thread roller = new Thread(wal::roll, "test-roll");
    roller.start();
    roller.join(TimeUnit.SECONDS.toMillis(60));
    boolean rollReturnedDuringForce = !roller.isAlive();

    // Writes after the roll, more than the write-out threshold: a writer's write-out does not
    // write them into the old segment, nor carry out the roll itself (that needs a force).
    for (int i = 0; i < 300; i++) {
      wal.append(List.of(new LogOp(("c" + i).getBytes(), VALUE)));
    }
    Thread writer = new Thread(wal::writeOutIfLarge, "test-writer");
    writer.start();
    writer.join(TimeUnit.SECONDS.toMillis(60));
    boolean writeOutReturnedDuringForce = !writer.isAlive();
    long oldSizeDuringForce = Files.size(oldSegment);
    boolean newExistedDuringForce = Files.exists(newSegment.get());

    hold.release();
    syncer.join();
    roller.join();
    writer.join();
    assertThat(rollReturnedDuringForce).as("the roll returned while the force was held").isTrue();
    assertThat(writeOutReturnedDuringForce).isTrue();
    assertThat(newExistedDuringForce).as("no new segment before the old one is forced").isFalse();
    assertThat(oldSizeDuringForce).as("the old segment holds a, not yet b or c")
        .isLessThan(2L * VALUE.length);

    // Before a flush: the roll is carried out, the old segment forced before the new one exists.
    wal.completeRolls();
    assertThat(newSegment.get()).exists();
    assertThat(wal.durableLsn()).isGreaterThanOrEqualTo(b);
    synchronized (forces) {
      // The open forces the new segment's header; then the held sync; then the roll, before the
      // new segment exists.
      assertThat(forces).containsExactly(oldSegment.getFileName().toString(),
          oldSegment.getFileName().toString(), oldSegment.getFileName().toString());
    }
    // The log can now drop the old segment once a flush holds b.
    wal.truncateUpTo(b);
    assertThat(oldSegment).doesNotExist();
    wal.close();

    List<String> seen = new ArrayList<>();
    WriteAheadLog.open(dir, Durability.GROUP, 3_600_000, FileIo.standard(),
        LogRecoveryMode.TOLERATE_TORN_TAIL, b, (lsn, op) -> seen.add(new String(op.key())))
        .close();
    assertThat(seen).hasSize(300);
    assertThat(seen.get(0)).isEqualTo("c0");
    assertThat(seen.get(299)).isEqualTo("c299");
  }

  @Test
  void rollsWithNothingBetweenStartOneSegmentAndCloseCarriesOutAPendingRoll() throws Exception {
    WriteAheadLog wal = WriteAheadLog.open(dir, Durability.SYNC, 10, FileIo.standard(),
        LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (lsn, op) -> { });
    long a = wal.append(List.of(new LogOp("a".getBytes(), VALUE)));
    wal.roll();
    wal.roll();
    long b = wal.append(List.of(new LogOp("b".getBytes(), VALUE)));
    wal.roll();
    wal.close();
    try (var s = Files.list(dir)) {
      assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("wal-"))
          .sorted().toList()).containsExactly(
          segmentPath(dir, 1).getFileName().toString(),
          segmentPath(dir, a + 1).getFileName().toString(),
          segmentPath(dir, b + 1).getFileName().toString());
    }
    List<Long> seen = new ArrayList<>();
    WriteAheadLog.open(dir, Durability.SYNC, 10, FileIo.standard(),
        LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (lsn, op) -> seen.add(lsn)).close();
    assertThat(seen).containsExactly(a, b);
  }
}
