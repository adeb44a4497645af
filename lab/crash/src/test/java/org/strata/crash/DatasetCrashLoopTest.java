package org.strata.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.Durability;
import org.strata.lsm.io.CrashPoint;

/**
 * Crash safety of datasets with real processes, through the crash loop: an import (upserts and
 * deletes with acknowledgements, {@code sync}) into a dataset with two secondary indexes, eagerly
 * maintained over two partitions and lazily over one, and a feed server ingesting acknowledged
 * lines over 127.0.0.1 ({@code group}, eager, two partitions), are killed with SIGKILL between a
 * write's indexes, in flushes, merges and log truncation, and after delays. After every kill each
 * partition of the reopened dataset holds the state after a prefix of its writes that covers every
 * acknowledged one (under group: but the last window's), its indexes agree with the primary
 * (verify; no stale entry under eager maintenance; an equality query on each indexed field returns
 * exactly the primary's records), and no temporary or unlisted file is left.
 */
class DatasetCrashLoopTest {
  private static final long SEED = 20261124;
  private static final long POINT_WAIT = 60_000;

  @TempDir Path tmp;

  private static KillPlan at(CrashPoint p, int occurrence) {
    return new KillPlan(p, occurrence, POINT_WAIT);
  }

  @Test
  void killsOfImportsAndFeedsLeaveAgreeingIndexesAndEveryAcknowledgedWrite() throws Exception {
    CrashTarget eager = CrashTarget.of(WriterKind.DATASET, "tiering", Durability.SYNC);
    CrashTarget lazy = CrashTarget.of(WriterKind.DATASET, "leveling", Durability.SYNC);
    // A feed under group into an eager dataset over two partitions, each losing its own window:
    // the configuration in which secondary entries disagreed with the primary after a kill at
    // log-truncation (seed 20261124, kill 6): a partition sealed its trees before it rolled the
    // log, so a flush could write operations the log had not (docs/reliability.md, fixed).
    CrashTarget feed = CrashTarget.of(WriterKind.FEED, "constant", Durability.GROUP);
    assertThat(eager.configJson()).contains("\"eager\"");
    assertThat(lazy.configJson()).contains("\"lazy\"");
    assertThat(eager.configJson()).contains("\"partitions\": 2");
    assertThat(feed.configJson()).contains("\"partitions\": 2").contains("\"eager\"");
    // Kill k goes to target k mod 3 with plan k.
    List<KillPlan> plans = List.of(
        at(CrashPoint.DATASET_BETWEEN_INDEXES, 2), at(CrashPoint.FLUSH_BEFORE_MANIFEST, 1),
        new KillPlan(null, 1, 800),
        at(CrashPoint.MERGE_BEFORE_MANIFEST, 1), at(CrashPoint.DATASET_BETWEEN_INDEXES, 5),
        at(CrashPoint.LOG_TRUNCATION, 1),
        new KillPlan(null, 1, 400), at(CrashPoint.MERGE_BEFORE_DELETE, 1),
        at(CrashPoint.DATASET_BETWEEN_INDEXES, 1));
    System.out.println("dataset crash loop: seed " + SEED);
    StringWriter text = new StringWriter();
    CrashLoop.Summary s;
    try (PrintWriter out = new PrintWriter(text)) {
      s = CrashLoop.run(new CrashLoop.Settings(plans.size(), 0, SEED,
          List.of(WriterKind.DATASET, WriterKind.FEED), tmp, CrashLoop.javaCommand(),
          List.of(eager, lazy, feed), plans), out);
    }
    System.out.print(text);
    assertThat(s.ok()).as(text.toString()).isTrue();
    assertThat(s.kills()).isEqualTo(plans.size());
    assertThat(s.atPoint()).isEqualTo(plans.size() - 2);
    assertThat(s.reached()).containsKeys(CrashPoint.DATASET_BETWEEN_INDEXES,
        CrashPoint.FLUSH_BEFORE_MANIFEST, CrashPoint.MERGE_BEFORE_MANIFEST,
        CrashPoint.MERGE_BEFORE_DELETE, CrashPoint.LOG_TRUNCATION);
  }
}
