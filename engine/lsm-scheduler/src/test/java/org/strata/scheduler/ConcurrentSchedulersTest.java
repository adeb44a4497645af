package org.strata.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeScheduler;

class ConcurrentSchedulersTest {
  /** A merge that consumes pages one by one, writing a chunk per page, honouring pause. */
  static final class PageOp implements IoOperation {
    final String name;
    final long total;
    final AtomicLong done = new AtomicLong();
    final IoThrottle throttle;
    final List<String> log;
    final MergeScheduler scheduler;
    private volatile boolean paused;
    private final Object lock = new Object();

    PageOp(String name, long pages, IoThrottle throttle, List<String> log,
        MergeScheduler scheduler) {
      this.name = name;
      this.total = pages;
      this.throttle = throttle;
      this.log = log;
      this.scheduler = scheduler;
    }

    @Override
    public Kind kind() {
      return Kind.MERGE;
    }

    @Override
    public String indexName() {
      return "i";
    }

    @Override
    public long totalInputPages() {
      return total;
    }

    @Override
    public long remainingInputPages() {
      return total - done.get();
    }

    @Override
    public void run() {
      try {
        while (done.get() < total) {
          synchronized (lock) {
            while (paused) {
              lock.wait(10);
            }
          }
          throttle.acquire(4096);
          if (throttle.bytesPerSecond() == 0) {
            Thread.sleep(1); // unthrottled: give the other threads a chance to interleave
          }
          done.incrementAndGet();
          log.add(name);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        scheduler.completed(this);
      }
    }

    @Override
    public void pause() {
      paused = true;
    }

    @Override
    public void resume() {
      synchronized (lock) {
        paused = false;
        lock.notifyAll();
      }
    }
  }

  private static void awaitDone(List<PageOp> ops) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (ops.stream().allMatch(o -> o.done.get() == o.total)) {
        return;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("operations did not finish");
  }

  @Test
  void greedyRunsTheSmallestMergeAndPausesTheLargerOne() throws Exception {
    MergeScheduler greedy = Plugins.mergeScheduler(new NamedPlugin("greedy", Map.of()));
    List<String> log = new CopyOnWriteArrayList<>();
    IoThrottle unlimited = IoThrottle.unlimited();
    PageOp big = new PageOp("big", 200, unlimited, log, greedy);
    PageOp small = new PageOp("small", 30, unlimited, log, greedy);
    greedy.schedule(big);
    while (big.done.get() < 20) {
      Thread.sleep(1);
    }
    greedy.schedule(small);
    awaitDone(List.of(big, small));
    greedy.close();
    int firstSmall = log.indexOf("small");
    int lastSmall = log.lastIndexOf("small");
    // Once the small merge started, the big one made at most one more page (the one in flight)
    // until the small one finished, then resumed.
    long bigDuringSmall = log.subList(firstSmall, lastSmall + 1).stream()
        .filter("big"::equals).count();
    assertThat(bigDuringSmall).isLessThanOrEqualTo(1);
    assertThat(log.subList(lastSmall + 1, log.size())).containsOnly("big").isNotEmpty();
  }

  @Test
  void greedyWithTwoRunsTheTwoSmallest() throws Exception {
    GreedyScheduler greedy = new GreedyScheduler(2, 0);
    List<String> log = new CopyOnWriteArrayList<>();
    IoThrottle unlimited = IoThrottle.unlimited();
    List<PageOp> ops = new ArrayList<>();
    PageOp a = new PageOp("a", 400, unlimited, log, greedy);
    greedy.schedule(a);
    PageOp b = new PageOp("b", 50, unlimited, log, greedy);
    PageOp c = new PageOp("c", 60, unlimited, log, greedy);
    greedy.schedule(b);
    greedy.schedule(c);
    assertThat(greedy.running()).containsExactlyInAnyOrder(b, c);
    ops.addAll(List.of(a, b, c));
    awaitDone(ops);
    greedy.close();
  }

  @Test
  void fairSharesTheBudgetEvenlyAmongRunningMerges() throws Exception {
    // 2 MB/s shared by three merges that each want all of it, over 30 seconds (AC-U5).
    IoThrottle throttle = new IoThrottle(2L << 20, 64 * 1024, Clock.system());
    MergeScheduler fair = Plugins.mergeScheduler(new NamedPlugin("fair", Map.of()));
    List<String> log = new CopyOnWriteArrayList<>();
    List<PageOp> ops = new ArrayList<>();
    for (String n : new String[] {"x", "y", "z"}) {
      ops.add(new PageOp(n, 1_000_000, throttle, log, fair));
    }
    ops.forEach(fair::schedule);
    Thread.sleep(30_000);
    long[] pages = ops.stream().mapToLong(o -> o.done.get()).toArray();
    long sum = pages[0] + pages[1] + pages[2];
    for (long p : pages) {
      assertThat((double) p / sum).as("share of %s", java.util.Arrays.toString(pages))
          .isBetween(1 / 3.0 * 0.9, 1 / 3.0 * 1.1);
    }
    for (PageOp o : ops) {
      o.done.set(o.total); // stop them
    }
    fair.close();
  }
}
