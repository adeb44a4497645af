package org.strata.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.dataset.Dataset;
import org.strata.lsm.dataset.DatasetConfigJson;

/**
 * The crash loop's verdicts on stores written in this process, where the test knows exactly which
 * writes are on disk and claims acknowledgements beyond them: the verifier must see every
 * acknowledged write that is missing, a value no write made, a tampered key and a leftover file,
 * and accept a store that holds every acknowledged write (with or without the in-flight one).
 */
class CrashVerifierTest {
  private static final long SEED = 42;

  @TempDir Path tmp;

  private final CrashTarget sync = CrashTarget.of(WriterKind.STORE, "constant", Durability.SYNC);
  private final CrashTarget group = CrashTarget.of(WriterKind.STORE, "constant",
      Durability.GROUP);
  private final CrashWorkload w = CrashWorkload.of(SEED, WriterKind.STORE);

  /** Writes operations 1..{@code last} of the workload to a store in {@code dir} and closes it. */
  private Path write(CrashTarget t, long last) {
    System.out.println("workload seed " + SEED + ", operations 1.." + last);
    Path dir = tmp.resolve("store");
    try (LsmStore s = LsmStore.open(dir, StoreConfigJson.parse(t.configJson(), "test"))) {
      for (long seq = 1; seq <= last; seq++) {
        byte[] k = w.key(seq).getBytes(StandardCharsets.US_ASCII);
        if (w.isDelete(seq)) {
          s.delete(k);
        } else {
          s.put(k, w.storeValue(seq));
        }
      }
    }
    return dir;
  }

  /** A run that acknowledged 1..{@code lastAck}, each {@code ageMillis} before the kill. */
  private static ChildRun.Result acked(long lastAck, long ageMillis) {
    long kill = System.currentTimeMillis();
    List<Long> at = new ArrayList<>();
    for (long s = 1; s <= lastAck; s++) {
      at.add(kill - ageMillis);
    }
    return new ChildRun.Result(lastAck, at, kill, false, null);
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 1})
  void everyAcknowledgedWriteAndMaybeTheInFlightOneIsAccepted(long inFlight) throws Exception {
    Path dir = write(sync, 400 + inFlight);
    CrashVerifier.Outcome o = CrashVerifier.check(sync, dir, w, CrashState.empty(), acked(400, 5));
    assertThat(o.faults()).isEmpty();
    assertThat(o.leftovers()).isEmpty();
    assertThat(o.state()).isNotNull();
    assertThat(o.ok()).isTrue();
    assertThat(o.lost()).isZero();
    assertThat(o.state().resumeAfter()).isEqualTo(400 + inFlight);
  }

  @Test
  void acknowledgedWritesMissingUnderSyncAreLosses() throws Exception {
    Path dir = write(sync, 400);
    CrashVerifier.Outcome o = CrashVerifier.check(sync, dir, w, CrashState.empty(), acked(403, 5));
    assertThat(o.lost()).isEqualTo(3);
    assertThat(o.lostOutsideWindow()).isEqualTo(3);
    assertThat(o.ok()).isFalse();
  }

  @Test
  void underGroupOnlyTheWritesOfTheLastIntervalMayBeLost() throws Exception {
    Path dir = write(group, 400);
    CrashVerifier.Outcome recent = CrashVerifier.check(group, dir, w, CrashState.empty(),
        acked(403, 5));
    assertThat(recent.lost()).isEqualTo(3);
    assertThat(recent.lostOutsideWindow()).isZero();
    assertThat(recent.ok()).isTrue();
    CrashVerifier.Outcome old = CrashVerifier.check(group, dir, w, CrashState.empty(),
        acked(403, group.groupCommitMillis() + CrashVerifier.GROUP_GRACE_MILLIS + 1000));
    assertThat(old.lostOutsideWindow()).isEqualTo(3);
    assertThat(old.ok()).isFalse();
  }

  @Test
  void underNoneAnyTailMayBeLostButTheContentIsStillAPrefix() throws Exception {
    CrashTarget none = CrashTarget.of(WriterKind.STORE, "constant", Durability.NONE);
    Path dir = write(none, 400);
    CrashVerifier.Outcome o = CrashVerifier.check(none, dir, w, CrashState.empty(),
        acked(450, 60_000));
    assertThat(o.lost()).isEqualTo(50);
    assertThat(o.lostOutsideWindow()).isZero();
    assertThat(o.ok()).isTrue();
    try (LsmStore s = LsmStore.open(dir, null)) {
      s.put(w.key(10).getBytes(StandardCharsets.US_ASCII), w.storeValue(5000));
    }
    assertThat(CrashVerifier.check(none, dir, w, CrashState.empty(), acked(450, 5)).ok())
        .isFalse();
  }

  @Test
  void aDroppedAcknowledgedKeyIsSeen() throws Exception {
    Path dir = write(sync, 400);
    long seq = 400;
    while (w.isDelete(seq)) {
      seq--;
    }
    try (LsmStore s = LsmStore.open(dir, null)) {
      s.delete(w.key(seq).getBytes(StandardCharsets.US_ASCII));
    }
    CrashVerifier.Outcome o = CrashVerifier.check(sync, dir, w, CrashState.empty(), acked(400, 5));
    assertThat(o.ok()).isFalse();
    assertThat(o.lost() > 0 || !o.faults().isEmpty()).isTrue();
  }

  @Test
  void aValueNoWriteMadeIsSeen() throws Exception {
    Path dir = write(sync, 400);
    try (LsmStore s = LsmStore.open(dir, null)) {
      s.put(w.key(10).getBytes(StandardCharsets.US_ASCII), w.storeValue(5000));
    }
    CrashVerifier.Outcome o = CrashVerifier.check(sync, dir, w, CrashState.empty(), acked(400, 5));
    assertThat(o.ok()).isFalse();
    assertThat(o.faults()).anyMatch(f -> f.contains("no write made"));
  }

  @Test
  void anOlderValueOfAKeyMatchesNoPrefix() throws Exception {
    Path dir = write(sync, 400);
    // The newest put of some key, replaced by that key's previous value: a lost update.
    long newest = -1;
    long previous = -1;
    for (long s = 400; s >= 1 && previous < 0; s--) {
      if (w.isDelete(s)) {
        continue;
      }
      if (newest < 0) {
        newest = s;
      } else if (w.key(s).equals(w.key(newest))) {
        previous = s;
      }
    }
    assertThat(previous).isPositive();
    try (LsmStore s = LsmStore.open(dir, null)) {
      s.put(w.key(newest).getBytes(StandardCharsets.US_ASCII), w.storeValue(previous));
    }
    CrashVerifier.Outcome o = CrashVerifier.check(sync, dir, w, CrashState.empty(), acked(400, 5));
    assertThat(o.ok()).isFalse();
  }

  /**
   * Writes operations 1..{@code last} to an eager dataset over two partitions under group, but
   * those that partition 1 owns only up to {@code lastOfPartition1}: what a kill leaves when the
   * group committer of partition 1 had not yet written out its last writes and partition 0's had.
   * Returns the number of operations partition 1 owns in {@code lastOfPartition1 + 1 .. last}.
   */
  private long writeDataset(CrashTarget t, CrashWorkload dw, long last, long lastOfPartition1)
      throws Exception {
    Path dir = tmp.resolve("dataset");
    long behind = 0;
    try (Dataset ds = Dataset.open(dir, DatasetConfigJson.parse(t.configJson(), "test"))) {
      assertThat(ds.partitionCount()).isEqualTo(2);
      for (long seq = 1; seq <= last; seq++) {
        if (ds.partitionOf(dw.key(seq)) == 1 && seq > lastOfPartition1) {
          behind++;
          continue;
        }
        if (dw.isDelete(seq)) {
          ds.delete(dw.key(seq));
        } else {
          ds.upsert(dw.key(seq), dw.fields(seq));
        }
      }
    }
    return behind;
  }

  @Test
  void underGroupEachPartitionOfADatasetMayLoseItsOwnLastWrites() throws Exception {
    CrashTarget t = CrashTarget.of(WriterKind.DATASET, "tiering", Durability.GROUP);
    assertThat(t.configJson()).contains("\"partitions\": 2");
    CrashWorkload dw = CrashWorkload.of(SEED, WriterKind.DATASET);
    long behind = writeDataset(t, dw, 400, 370);
    assertThat(behind).isPositive();
    Path dir = tmp.resolve("dataset");

    CrashVerifier.Outcome recent = CrashVerifier.check(t, dir, dw, CrashState.empty(), acked(400,
        5));
    assertThat(recent.faults()).isEmpty();
    assertThat(recent.ok()).isTrue();
    // Partition 1's missing writes are lost (a delete of an absent key may count as kept).
    assertThat(recent.lost()).isPositive().isLessThanOrEqualTo(behind);
    assertThat(recent.lostOutsideWindow()).isZero();
    // The next run starts after partition 1's prefix, which is behind partition 0's.
    assertThat(recent.state().resumeAfter()).isBetween(370L, 399L);

    CrashVerifier.Outcome old = CrashVerifier.check(t, dir, dw, CrashState.empty(),
        acked(400, t.groupCommitMillis() + CrashVerifier.GROUP_GRACE_MILLIS + 1000));
    assertThat(old.lostOutsideWindow()).isEqualTo(old.lost()).isPositive();
    assertThat(old.ok()).isFalse();

    CrashTarget sync = CrashTarget.of(WriterKind.DATASET, "tiering", Durability.SYNC);
    CrashVerifier.Outcome underSync = CrashVerifier.check(sync, dir, dw, CrashState.empty(),
        acked(400, 5));
    assertThat(underSync.lostOutsideWindow()).isPositive();
    assertThat(underSync.ok()).isFalse();
  }

  /**
   * The run after a kill that left partition 1 behind writes again from partition 1's point, into
   * both partitions: killed before it passes partition 0's point ({@code to} 380: partition 0 then
   * holds older values of some keys than before, newer of others), and after ({@code to} 450).
   */
  @ParameterizedTest
  @ValueSource(longs = {380, 450})
  void aRunThatWritesAgainIntoAPartitionThatIsAheadIsFollowed(long to) throws Exception {
    CrashTarget t = CrashTarget.of(WriterKind.DATASET, "tiering", Durability.GROUP);
    CrashWorkload dw = CrashWorkload.of(SEED, WriterKind.DATASET);
    writeDataset(t, dw, 400, 370);
    Path dir = tmp.resolve("dataset");
    CrashState state = CrashVerifier.check(t, dir, dw, CrashState.empty(), acked(400, 5)).state();
    long from = state.resumeAfter() + 1;
    assertThat(from).isLessThan(380);
    try (Dataset ds = Dataset.open(dir, null)) {
      for (long seq = from; seq <= to; seq++) {
        if (dw.isDelete(seq)) {
          ds.delete(dw.key(seq));
        } else {
          ds.upsert(dw.key(seq), dw.fields(seq));
        }
      }
    }
    long kill = System.currentTimeMillis();
    List<Long> at = new ArrayList<>();
    for (long s = from; s <= to; s++) {
      at.add(kill - 5);
    }
    CrashVerifier.Outcome o = CrashVerifier.check(t, dir, dw, state,
        new ChildRun.Result(to, at, kill, false, null));
    assertThat(o.faults()).isEmpty();
    assertThat(o.lost()).isZero();
    assertThat(o.ok()).isTrue();
    // Partition 1 is at `to` (or past it, by operations that change nothing there); partition 0
    // at the larger of `to` and 400.
    assertThat(o.state().resumeAfter()).isGreaterThanOrEqualTo(to);
    // A tampered value in partition 0 of a key this run wrote again is still seen.
    try (Dataset ds = Dataset.open(dir, null)) {
      long seq = to;
      while (dw.isDelete(seq) || ds.partitionOf(dw.key(seq)) != 0) {
        seq--;
      }
      long older = seq - 1;
      while (!dw.key(older).equals(dw.key(seq)) || dw.isDelete(older)) {
        older--;
      }
      ds.upsert(dw.key(seq), dw.fields(older));
    }
    CrashVerifier.Outcome tampered = CrashVerifier.check(t, dir, dw, state,
        new ChildRun.Result(to, at, kill, false, null));
    assertThat(tampered.ok()).isFalse();
  }

  @Test
  void aTemporaryFileLeftBehindIsALeftover() throws Exception {
    Path dir = write(sync, 100);
    Files.writeString(dir.resolve("wal").resolve("stray.tmp"), "x");
    CrashVerifier.Outcome o = CrashVerifier.check(sync, dir, w, CrashState.empty(), acked(100, 5));
    assertThat(o.leftovers()).containsExactly("wal/stray.tmp");
    assertThat(o.ok()).isFalse();
  }

  /**
   * Full TRIAD's CL-SSTables are components too: a store that wrote some (an index file beside
   * the other components, its log segment beside the log) passes (it did not while only {@code
   * .cmp} files were counted), and a log segment no CL-SSTable lists is gone after the reopen.
   */
  @Test
  void clSsTablesAreCountedAsComponentsAndAStraySegmentIsALeftover() throws Exception {
    CrashTarget triad = CrashTarget.of(WriterKind.STORE, "triad", Durability.SYNC);
    Path dir = write(triad, 3000);
    List<Path> indexes;
    try (Stream<Path> files = Files.walk(dir)) {
      indexes = files.filter(p -> p.getFileName().toString().endsWith(".cli")).toList();
    }
    assertThat(indexes).as("CL-SSTables written").isNotEmpty();
    CrashVerifier.Outcome o = CrashVerifier.check(triad, dir, w, CrashState.empty(),
        acked(3000, 5));
    assertThat(o.leftovers()).isEmpty();
    assertThat(o.ok()).as(o.toString()).isTrue();

    // A segment a crashed flush linked but never listed is deleted by the open the check makes.
    Path stray = dir.resolve("wal").resolve("000000999999.clog");
    Files.writeString(stray, "x");
    o = CrashVerifier.check(triad, dir, w, CrashState.empty(), acked(3000, 5));
    assertThat(o.ok()).as(o.toString()).isTrue();
    assertThat(stray).doesNotExist();
  }
}
