package org.strata.lsm.wal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.io.FileIo;

/**
 * {@link WriteAheadLog#holdThrough}: what a flush calls before it writes a memory component. Even
 * with no roll asked for yet (a dataset's indexes sealed before the roll was marked), the log's
 * files hold every operation up to the component's last sequence number afterwards, so a kill
 * cannot take from the log an operation a disk component keeps. Checked by reading the log's files
 * as recovery would, while the buffered log is still open.
 */
class WriteAheadLogHoldThroughTest {
  private static final byte[] VALUE = new byte[100];

  private static long lastLsnInFiles(Path dir) {
    AtomicLong last = new AtomicLong();
    try {
      // Read-only: the log is open (and holds its directory's lock), so scan its files directly.
      LogScan scan = LogScan.read(dir, 0);
      scan.replay(scan.segments().size(), 0, 0, (lsn, op) -> last.set(lsn));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return last.get();
  }

  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"GROUP", "NONE"})
  void theFilesHoldEveryOperationUpToTheGivenOne(Durability durability, @TempDir Path dir) {
    // A group commit interval of an hour: nothing reaches the files but what the test asks for.
    WriteAheadLog wal = WriteAheadLog.open(dir, durability, 3_600_000, FileIo.standard(),
        LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (lsn, op) -> { });
    try {
      long last = 0;
      for (int i = 0; i < 20; i++) {
        last = wal.append(List.of(new LogOp(("k" + i).getBytes(), VALUE)));
      }
      assertThat(lastLsnInFiles(dir)).as("buffered, not written yet").isZero();
      wal.completeRolls();
      assertThat(lastLsnInFiles(dir)).as("no roll was asked for: completing rolls writes nothing")
          .isZero();
      wal.holdThrough(last);
      assertThat(lastLsnInFiles(dir)).isEqualTo(last);
      long more = wal.append(List.of(new LogOp("late".getBytes(), VALUE)));
      wal.holdThrough(last); // already held: the later operation may stay buffered
      assertThat(lastLsnInFiles(dir)).isBetween(last, more);
    } finally {
      wal.close();
    }
  }
}
