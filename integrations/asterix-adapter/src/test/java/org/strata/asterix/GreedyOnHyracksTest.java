package org.strata.asterix;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.strata.asterix.MergeListener.MergeView;
import org.strata.lsm.config.NamedPlugin;

/**
 * Observes Strata's greedy scheduler driving Hyracks merges: tiering under a 1 MB/s write budget
 * keeps several merges of one index scheduled at once; every time the scheduler lets a merge run,
 * no other merge of that index may be running and the chosen one must have the fewest remaining
 * pages. The same workload under {@code fair} shows that the observation does see concurrent
 * merges when a scheduler runs them.
 */
class GreedyOnHyracksTest {
  /**
   * Pages a merge that was just paused may still read before Hyracks' next pause check (every
   * 1,000 tuples; these tuples are about 300 to a 4 KB page, read from up to T inputs).
   */
  private static final long PAUSE_SLACK_PAGES = 8;

  /** Records what the scheduler did and every rule it broke. */
  static final class Observer implements MergeListener {
    final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger choicesAmongSeveral = new AtomicInteger();
    final AtomicInteger preemptions = new AtomicInteger();
    final AtomicInteger concurrentStarts = new AtomicInteger();
    final Set<Long> running = ConcurrentHashMap.newKeySet();

    @Override
    public void started(MergeView merge, List<MergeView> others) {
      if (merge.running()) {
        running.add(merge.id());
        check(merge, others);
      }
    }

    @Override
    public void resumed(MergeView merge, List<MergeView> others) {
      running.add(merge.id());
      check(merge, others);
      long smallestOther = Long.MAX_VALUE;
      for (MergeView o : others) {
        smallestOther = Math.min(smallestOther, o.remainingPages());
      }
      if (!others.isEmpty()) {
        choicesAmongSeveral.incrementAndGet();
        if (merge.remainingPages() > smallestOther + PAUSE_SLACK_PAGES) {
          violations.add("resumed merge " + merge.id() + " with " + merge.remainingPages()
              + " pages left while another had " + smallestOther);
        }
      }
    }

    @Override
    public void paused(MergeView merge) {
      if (running.remove(merge.id())) {
        preemptions.incrementAndGet();
      }
    }

    @Override
    public void completed(MergeView merge, boolean success) {
      running.remove(merge.id());
      if (!success) {
        violations.add("merge " + merge.id() + " failed");
      }
    }

    private void check(MergeView merge, List<MergeView> others) {
      for (MergeView o : others) {
        if (o.running()) {
          concurrentStarts.incrementAndGet();
          violations.add("merge " + merge.id() + " runs while merge " + o.id() + " of index "
              + o.indexIdentifier() + " runs");
        }
      }
    }
  }

  private Observer run(String scheduler) throws Exception {
    File dir = Files.createTempDirectory(new File("target").toPath(), "hyracks-greedy-").toFile();
    StrataIoScheduler io = new StrataIoScheduler(new NamedPlugin(scheduler, Map.of()),
        StrataIoScheduler.Scope.INDEX, Thread::new, null, 1);
    Observer observer = new Observer();
    io.addListener(observer);
    StrataPageWriteCallbackFactory pageWrites =
        new StrataPageWriteCallbackFactory(1L << 20, 1L << 20);
    int flushes = 45;
    int batch = 2000;
    int[] keys = PolicyOnHyracksTest.shuffledKeys(flushes * batch, 11);
    BitSet inserted = new BitSet();
    try (HyracksTree tree = new HyracksTree(dir, new StrataMergePolicyFactory().createMergePolicy(
        Map.of("policy", "tiering", "size-ratio", "3", "preemptive", "false"), null), io,
        pageWrites, 256)) {
      for (int f = 0; f < flushes; f++) {
        for (int i = f * batch; i < (f + 1) * batch; i++) {
          tree.insert(keys[i], keys[i] * 7);
          inserted.set(keys[i]);
        }
        tree.flush();
      }
      Quiescence.await(tree, io);
      assertThat(tree.scanKeys()).isEqualTo(inserted);
      assertThat(io.operationsFailed()).isZero();
      assertThat(pageWrites.stats().mergePages()).isPositive();
    } finally {
      io.close();
    }
    return observer;
  }

  @Test
  void greedyRunsOneMergePerIndexAndAlwaysTheSmallest() throws Exception {
    Observer o = run("greedy");
    assertThat(o.violations).isEmpty();
    assertThat(o.choicesAmongSeveral.get()).as("times greedy chose among several merges")
        .isPositive();
    assertThat(o.preemptions.get()).as("running merges paused for a smaller one").isPositive();
  }

  @Test
  void fairRunsMergesOfOneIndexConcurrently() throws Exception {
    Observer o = run("fair");
    assertThat(o.concurrentStarts.get()).as("merges started while another of the index ran")
        .isPositive();
  }
}
