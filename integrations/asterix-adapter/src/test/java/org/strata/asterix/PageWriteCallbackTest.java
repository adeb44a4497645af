package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;

/** Strata's throttle and forced writes applied to a real Hyracks tree's flushes and merges. */
class PageWriteCallbackTest {
  private record Run(PageWriteStats stats, long throttled, long operations) {}

  private Run load(long forceBytes) throws Exception {
    File dir = Files.createTempDirectory(new File("target").toPath(), "hyracks-pw-").toFile();
    StrataIoScheduler io = new StrataIoScheduler(new NamedPlugin("fair", Map.of()),
        StrataIoScheduler.Scope.INDEX, Thread::new, null, 1);
    StrataPageWriteCallbackFactory pageWrites = new StrataPageWriteCallbackFactory(0, forceBytes);
    int flushes = 12;
    try (HyracksTree tree = new HyracksTree(dir, new StrataMergePolicyFactory().createMergePolicy(
        Map.of("policy", "binomial", "num-components", "3"), null), io, pageWrites, 256)) {
      for (int f = 0; f < flushes; f++) {
        for (int i = 0; i < 3000; i++) {
          int k = f * 3000 + i;
          tree.insert(k, k * 7);
        }
        tree.flush();
      }
      Quiescence.await(tree, io);
      return new Run(pageWrites.stats(), pageWrites.throttle().totalBytes(),
          flushes + io.mergesCompleted());
    } finally {
      io.close();
    }
  }

  @Test
  void everyPageGoesThroughTheThrottleAndForcesFollowForceBytes() throws Exception {
    long forceBytes = 8 * HyracksTree.PAGE_SIZE;
    Run r = load(forceBytes);
    assertThat(r.stats().flushPages()).isPositive();
    assertThat(r.stats().mergePages()).isPositive();
    assertThat(r.throttled()).isEqualTo(r.stats().bytes());
    long intervals = r.stats().bytes() / forceBytes;
    // Each flush or merge forces after every full interval it writes; what it writes past its
    // last full interval is forced by Hyracks when the component ends.
    assertThat(r.stats().forces()).isBetween(intervals - r.operations(), intervals);
    assertThat(r.stats().forces()).isPositive();
  }

  @Test
  void zeroForceBytesLeavesForcingToHyracks() throws Exception {
    Run r = load(0);
    assertThat(r.stats().bytes()).isPositive();
    assertThat(r.stats().forces()).isZero();
  }
}
