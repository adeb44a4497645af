package org.strata.lsm.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Durability;
import org.strata.lsm.io.FileIo;

class WriteAheadLogTest {
  @TempDir Path dir;

  private static LogOp put(String k, String v) {
    return new LogOp(k.getBytes(StandardCharsets.UTF_8), v.getBytes(StandardCharsets.UTF_8));
  }

  private List<String> replay(long flushedLsn) {
    List<String> seen = new ArrayList<>();
    WriteAheadLog wal = WriteAheadLog.open(dir, Durability.SYNC, 10, FileIo.standard(),
        flushedLsn, (lsn, op) -> seen.add(lsn + ":" + new String(op.key(), StandardCharsets.UTF_8)
            + "=" + (op.isDelete() ? "<del>" : new String(op.value(), StandardCharsets.UTF_8))));
    wal.close();
    return seen;
  }

  private Path[] segments() throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toArray(Path[]::new);
    }
  }

  @Test
  void replaysRecordsAboveTheFlushedLsnAcrossSegments() {
    WriteAheadLog wal = WriteAheadLog.open(dir, Durability.SYNC, 10, FileIo.standard(), 0,
        (l, o) -> { });
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
    WriteAheadLog wal = WriteAheadLog.open(dir, Durability.SYNC, 10, FileIo.standard(), 0,
        (l, o) -> { });
    wal.append(List.of(put("a", "1")));
    wal.append(List.of(put("b", "2")));
    wal.syncAll();
    wal.close();
    Path seg = segments()[segments().length - 1];
    long size = Files.size(seg);
    try (var ch = java.nio.channels.FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(size - 3); // a crash in the middle of the second record
    }
    List<String> seen = new ArrayList<>();
    wal = WriteAheadLog.open(dir, Durability.SYNC, 10, FileIo.standard(), 0,
        (lsn, op) -> seen.add(lsn + ":" + new String(op.key(), StandardCharsets.UTF_8)));
    assertThat(seen).containsExactly("1:a");
    wal.append(List.of(put("c", "3")));
    wal.syncAll();
    wal.close();
    assertThat(replay(0)).containsExactly("1:a=1", "2:c=3");
  }

  @Test
  void corruptionInAnEarlierSegmentIsReported() throws Exception {
    WriteAheadLog wal = WriteAheadLog.open(dir, Durability.SYNC, 10, FileIo.standard(), 0,
        (l, o) -> { });
    wal.append(List.of(put("a", "1")));
    wal.roll();
    wal.append(List.of(put("b", "2")));
    wal.close();
    Path first = segments()[0];
    byte[] data = Files.readAllBytes(first);
    data[data.length - 1] ^= 1;
    Files.write(first, data);
    assertThatThrownBy(() -> replay(0)).isInstanceOf(CorruptionException.class)
        .hasMessageContaining(first.getFileName().toString());
  }

  @Test
  void truncateDeletesOnlyFullyFlushedSegments() {
    WriteAheadLog wal = WriteAheadLog.open(dir, Durability.NONE, 10, FileIo.standard(), 0,
        (l, o) -> { });
    wal.append(List.of(put("a", "1"))); // lsn 1
    wal.roll();
    wal.append(List.of(put("b", "2"))); // lsn 2
    wal.roll();
    wal.append(List.of(put("c", "3"))); // lsn 3
    assertThat(wal.segmentCount()).isEqualTo(3);
    wal.truncateUpTo(1);
    assertThat(wal.segmentCount()).isEqualTo(2);
    wal.truncateUpTo(3);
    assertThat(wal.segmentCount()).isEqualTo(1); // the current segment stays
    wal.close();
    assertThat(replay(1)).containsExactly("3:c=3");
  }
}
