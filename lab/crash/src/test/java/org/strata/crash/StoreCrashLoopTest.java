package org.strata.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.ByteCounters;
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.io.CrashPoint;

/**
 * Crash safety of standalone stores with real processes, through the crash loop: writers on a
 * constant-policy store ({@code sync}), a TRIAD-MEM store ({@code sync}: hot keys carried over and
 * re-logged at seals, small flushes skipped) and a tiering store ({@code group}) are killed with
 * SIGKILL at every crash point of flushes, merges, manifest writes and the log, and after delays.
 * After every kill the reopened store holds every acknowledged write with its exact value (for
 * {@code group}: all but those of the last group-commit window), nothing else, verifies clean and
 * has no temporary or unlisted file. A crash point is waited for up to a minute; the writer runs
 * until it gets there, so every planned point is reached.
 */
class StoreCrashLoopTest {
  private static final long SEED = 20261123;
  private static final long POINT_WAIT = 60_000;

  @TempDir Path tmp;

  private static KillPlan at(CrashPoint p, int occurrence) {
    return new KillPlan(p, occurrence, POINT_WAIT);
  }

  /** Runs the loop of store writers (kill k to target k mod n, plan k), printing its lines. */
  private CrashLoop.Summary loop(long seed, List<CrashTarget> targets, List<KillPlan> plans)
      throws Exception {
    StringWriter text = new StringWriter();
    CrashLoop.Summary s;
    try (PrintWriter out = new PrintWriter(text)) {
      s = CrashLoop.run(new CrashLoop.Settings(plans.size(), 0, seed, List.of(WriterKind.STORE),
          tmp, CrashLoop.javaCommand(), targets, plans), out);
    }
    System.out.print(text);
    assertThat(s.ok()).as(text.toString()).isTrue();
    assertThat(s.kills()).isEqualTo(plans.size());
    return s;
  }

  @Test
  void killsAtEveryStoreCrashPointLoseNoAcknowledgedWrite() throws Exception {
    CrashTarget constant = CrashTarget.of(WriterKind.STORE, "constant", Durability.SYNC);
    CrashTarget triad = CrashTarget.of(WriterKind.STORE, "triad-mem", Durability.SYNC);
    CrashTarget tiering = CrashTarget.of(WriterKind.STORE, "tiering", Durability.GROUP);
    // Kill k goes to target k mod 3 with plan k.
    List<KillPlan> plans = List.of(
        at(CrashPoint.FLUSH_BEFORE_MANIFEST, 1), at(CrashPoint.LOG_ROTATION, 2),
        at(CrashPoint.MANIFEST_BEFORE_RENAME, 1),
        at(CrashPoint.MERGE_BEFORE_MANIFEST, 1), at(CrashPoint.LOG_TRUNCATION, 1),
        at(CrashPoint.MERGE_BEFORE_DELETE, 1),
        new KillPlan(null, 1, 500), at(CrashPoint.FLUSH_BEFORE_MANIFEST, 3),
        at(CrashPoint.LOG_TRUNCATION, 2),
        at(CrashPoint.MERGE_BEFORE_DELETE, 1), at(CrashPoint.MERGE_BEFORE_MANIFEST, 1),
        new KillPlan(null, 1, 300));
    System.out.println("store crash loop: seed " + SEED);
    CrashLoop.Summary s = loop(SEED, List.of(constant, triad, tiering), plans);
    assertThat(s.reached().keySet()).as("crash points reached")
        .containsExactlyInAnyOrder(CrashPoint.FLUSH_BEFORE_MANIFEST, CrashPoint.LOG_ROTATION,
            CrashPoint.MANIFEST_BEFORE_RENAME, CrashPoint.MERGE_BEFORE_MANIFEST,
            CrashPoint.LOG_TRUNCATION, CrashPoint.MERGE_BEFORE_DELETE);
    assertThat(s.atPoint()).isEqualTo(plans.size() - 2);
    ByteCounters bytes;
    try (LsmStore store = LsmStore.open(tmp.resolve(triad.name()), null)) {
      bytes = store.stats().bytes();
    }
    assertThat(bytes.reloggedEntries()).as("TRIAD-MEM carried hot keys over").isPositive();
    assertThat(bytes.flushesSkipped()).as("TRIAD-MEM skipped small flushes").isPositive();
  }

  /**
   * Full TRIAD (TRIAD-MEM, TRIAD-LOG, {@code triad-disk}): kills in a flush that writes a
   * CL-SSTable, in a merge that reads values from log segments, and after a delay lose no
   * acknowledged write, and the store's flushes wrote CL-SSTable indexes (a memory component
   * recovery rebuilt from more than one segment is flushed as a B+-tree: docs/format.md).
   */
  @Test
  void killsOfFullTriadLoseNoAcknowledgedWrite() throws Exception {
    CrashTarget triad = CrashTarget.of(WriterKind.STORE, "triad", Durability.SYNC);
    assertThat(triad.configJson()).contains("\"log\": true");
    List<KillPlan> plans = List.of(at(CrashPoint.FLUSH_BEFORE_MANIFEST, 2),
        at(CrashPoint.MERGE_BEFORE_DELETE, 1), new KillPlan(null, 1, 400));
    CrashLoop.Summary s = loop(SEED + 1, List.of(triad), plans);
    assertThat(s.reached().keySet()).as("crash points reached")
        .contains(CrashPoint.FLUSH_BEFORE_MANIFEST, CrashPoint.MERGE_BEFORE_DELETE);
    ByteCounters bytes;
    try (LsmStore store = LsmStore.open(tmp.resolve(triad.name()), null)) {
      bytes = store.stats().bytes();
    }
    assertThat(bytes.flushIndexBytes()).as("TRIAD-LOG flushes wrote CL-SSTables").isPositive();
  }

  /**
   * TRIAD-MEM under {@code none}: kills right after a flush is listed in the manifest, before the
   * old log segment is deleted. The manifest's flushed sequence number makes recovery skip the old
   * segment, so the hot keys carried over at the seal survive only through their re-logged records
   * in the new segment: these must be in the log's files before the manifest lists the flush, or
   * the recovered state lacks the hot keys' newest versions while it holds later cold writes (no
   * prefix of the writes, which {@code none} must still give after a process crash).
   */
  @Test
  void killsOfTriadMemUnderNoneAtLogTruncationRecoverAPrefix() throws Exception {
    CrashTarget triad = CrashTarget.of(WriterKind.STORE, "triad", Durability.NONE);
    List<KillPlan> plans = List.of(at(CrashPoint.LOG_TRUNCATION, 2),
        at(CrashPoint.LOG_TRUNCATION, 5), at(CrashPoint.LOG_TRUNCATION, 9),
        at(CrashPoint.LOG_TRUNCATION, 14));
    CrashLoop.Summary s = loop(SEED + 2, List.of(triad), plans);
    assertThat(s.atPoint()).as("every kill at log-truncation").isEqualTo(plans.size());
    ByteCounters bytes;
    try (LsmStore store = LsmStore.open(tmp.resolve(triad.name()), null)) {
      bytes = store.stats().bytes();
    }
    assertThat(bytes.reloggedEntries()).as("TRIAD-MEM carried hot keys over").isPositive();
  }
}
