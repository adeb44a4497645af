package org.strata.lsm.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.CorruptionException;
import org.strata.lsm.Durability;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.testing.LogImages;

/**
 * Segments that are missing, cut short, lengthened, renamed, or from another log: the log's
 * catalogue lists its segments with their sizes and every segment's header names its log, so each
 * is found at open (refused in the default mode, naming the file) and by verification. Once, a
 * missing first or middle segment left a silent hole of acknowledged writes.
 */
class LogGapTest {
  @TempDir Path tmp;

  /** Three segments of 10 records each (LSN 1-10, 11-20, 21-30), synced, then a kill. */
  private Path threeSegments(String name) throws Exception {
    Path dir = tmp.resolve(name);
    WriteAheadLog wal = WriteAheadLog.open(dir, Durability.SYNC, 10, FileIo.standard(),
        LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (l, o) -> { });
    for (int i = 0; i < 30; i++) {
      wal.append(List.of(new LogOp(("k" + i).getBytes(StandardCharsets.UTF_8),
          ("v" + i).getBytes(StandardCharsets.UTF_8))));
      wal.syncAll();
      if (i == 9 || i == 19) {
        wal.roll();
      }
    }
    wal.syncAll();
    wal.closeAsIfKilled();
    return dir;
  }

  private static List<Path> segments(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
    }
  }

  private static List<Long> replay(Path dir, LogRecoveryMode mode, long flushed) {
    List<Long> seen = new ArrayList<>();
    WriteAheadLog.open(dir, Durability.SYNC, 10, FileIo.standard(), mode, flushed,
        (lsn, op) -> seen.add(lsn)).close();
    return seen;
  }

  private static List<Long> range(long from, long to) {
    List<Long> l = new ArrayList<>();
    for (long i = from; i <= to; i++) {
      l.add(i);
    }
    return l;
  }

  @Test
  void aMissingFirstOrMiddleSegmentIsRefusedAndVerifiedAsAFault() throws Exception {
    for (int which = 0; which < 2; which++) {
      Path dir = threeSegments("gap-" + which);
      List<Path> segs = segments(dir);
      assertThat(segs).hasSize(3);
      Path gone = segs.get(which);
      Files.delete(gone);
      Path copy = LogImages.copyTree(dir, tmp.resolve("gap-copy-" + which));
      LogVerifier.Result v = LogVerifier.verify(dir, 0, LogRecoveryMode.TOLERATE_TORN_TAIL);
      assertThat(v.faults()).as("verify").anySatisfy(f -> assertThat(f)
          .contains(gone.getFileName().toString()).contains("missing"));
      assertThatThrownBy(() -> replay(dir, LogRecoveryMode.TOLERATE_TORN_TAIL, 0))
          .isInstanceOf(CorruptionException.class)
          .hasMessageContaining(gone.getFileName().toString()).hasMessageContaining("missing");
      // Nothing was changed by the refusal; skip-corrupted replays the other segments.
      List<Long> want = new ArrayList<>();
      for (int s = 0; s < 3; s++) {
        if (s != which) {
          want.addAll(range(s * 10 + 1, s * 10 + 10));
        }
      }
      assertThat(replay(copy, LogRecoveryMode.SKIP_CORRUPTED, 0)).isEqualTo(want);
      // Once everything up to the gap is flushed, a missing segment loses nothing: it opens.
      if (which == 0) {
        Path flushed = LogImages.copyTree(dir, tmp.resolve("gap-flushed"));
        assertThat(replay(flushed, LogRecoveryMode.TOLERATE_TORN_TAIL, 10))
            .isEqualTo(range(11, 30));
      }
    }
  }

  @Test
  void aSegmentCutShortLengthenedOrFromAnotherLogIsRefused() throws Exception {
    // Cut: the middle (sealed) segment loses its last record.
    Path cut = threeSegments("cut");
    Path mid = segments(cut).get(1);
    byte[] data = Files.readAllBytes(mid);
    Files.write(mid, java.util.Arrays.copyOf(data, data.length - 10));
    assertThat(LogVerifier.verify(cut, 0, LogRecoveryMode.TOLERATE_TORN_TAIL).faults())
        .anySatisfy(f -> assertThat(f).contains(mid.getFileName().toString())
            .contains("cut short"));
    assertThatThrownBy(() -> replay(cut, LogRecoveryMode.TOLERATE_TORN_TAIL, 0))
        .isInstanceOf(CorruptionException.class)
        .hasMessageContaining(mid.getFileName().toString());
    // Lengthened: bytes appended to a sealed segment are not read and are refused.
    Path longer = threeSegments("longer");
    Path first = segments(longer).get(0);
    Files.write(first, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
    assertThatThrownBy(() -> replay(longer, LogRecoveryMode.TOLERATE_TORN_TAIL, 0))
        .isInstanceOf(CorruptionException.class).hasMessageContaining("bytes were added");
    // From another log: a segment of log B copied over a segment of log A with the same name.
    Path a = threeSegments("a");
    Path b = threeSegments("b");
    Files.copy(segments(b).get(2), segments(a).get(2), StandardCopyOption.REPLACE_EXISTING);
    assertThatThrownBy(() -> replay(a, LogRecoveryMode.TOLERATE_TORN_TAIL, 0))
        .isInstanceOf(CorruptionException.class).hasMessageContaining("another store");
    // A segment renamed: its header names another first sequence number.
    Path renamed = threeSegments("renamed");
    Path last = segments(renamed).get(2);
    Files.move(last, last.resolveSibling("wal-00000000000000000025.log"));
    assertThatThrownBy(() -> replay(renamed, LogRecoveryMode.TOLERATE_TORN_TAIL, 0))
        .isInstanceOf(CorruptionException.class).hasMessageContaining("wal-0000000000000000002");
    // The catalogue removed: nothing tells a missing segment from a good one any more.
    Path noCatalog = threeSegments("nocatalog");
    Files.delete(noCatalog.resolve(LogCatalog.FILE));
    assertThatThrownBy(() -> replay(noCatalog, LogRecoveryMode.TOLERATE_TORN_TAIL, 0))
        .isInstanceOf(CorruptionException.class).hasMessageContaining("no catalogue");
  }
}
