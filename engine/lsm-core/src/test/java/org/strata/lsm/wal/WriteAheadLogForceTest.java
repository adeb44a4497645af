package org.strata.lsm.wal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.testing.FaultInjectingFileIo;

/**
 * A writer that writes out a large log buffer does not wait for a force in progress: the force of
 * a group commit can take hundreds of milliseconds while merges write, and a writer blocked behind
 * it shows as the write latency's maximum. The force here is held inside the file by a latch, so
 * the check is on what happened (the write-out reached the file while the force was held), not on
 * how long anything took.
 */
class WriteAheadLogForceTest {
  @TempDir Path dir;

  @Test
  void largeWriteOutProceedsWhileAForceIsInProgress() throws Exception {
    ForceHold hold = new ForceHold();
    FaultInjectingFileIo io = new FaultInjectingFileIo().recording(false);
    io.onForce(".log", hold);
    WriteAheadLog wal = WriteAheadLog.open(dir, Durability.NONE, 10, io,
        LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (lsn, op) -> { });
    Path segment;
    try (var s = Files.list(dir)) {
      segment = s.filter(p -> p.toString().endsWith(".log")).findFirst().orElseThrow();
    }
    byte[] value = new byte[4096];
    long first = wal.append(List.of(new LogOp("first".getBytes(), value)));

    // A sync (as the group commit makes) that stops inside its force.
    hold.hold();
    AtomicReference<Throwable> syncError = new AtomicReference<>();
    Thread syncer = new Thread(() -> {
      try {
        wal.sync(first);
      } catch (Throwable t) {
        syncError.set(t);
      }
    }, "test-sync");
    syncer.start();
    assertThat(hold.awaitHeld()).as("the sync reached its force").isTrue();
    long sizeDuringForce = Files.size(segment);

    // A writer appends more than the write-out threshold (1 MB) and writes it out.
    for (int i = 0; i < 300; i++) {
      wal.append(List.of(new LogOp(("k" + i).getBytes(), value)));
    }
    Thread writer = new Thread(wal::writeOutIfLarge, "test-writer");
    writer.start();
    writer.join(TimeUnit.SECONDS.toMillis(60));
    boolean writerFinishedDuringForce = !writer.isAlive();
    long sizeAfterWriteOut = Files.size(segment);
    hold.release();
    syncer.join();
    writer.join();

    assertThat(syncError.get()).isNull();
    assertThat(writerFinishedDuringForce)
        .as("the writer's write-out finished while the force was still held").isTrue();
    assertThat(sizeAfterWriteOut).as("the write-out reached the file during the force")
        .isGreaterThan(sizeDuringForce + 300L * value.length);
    assertThat(wal.durableLsn()).isGreaterThanOrEqualTo(first);
    wal.close();

    List<Long> seen = new ArrayList<>();
    WriteAheadLog.open(dir, Durability.NONE, 10, FileIo.standard(),
        LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (lsn, op) -> seen.add(lsn)).close();
    assertThat(seen).hasSize(301);
  }
}
