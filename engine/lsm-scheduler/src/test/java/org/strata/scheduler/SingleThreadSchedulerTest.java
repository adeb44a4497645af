package org.strata.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeScheduler;

class SingleThreadSchedulerTest {
  static final class Op implements IoOperation {
    final int id;
    final List<Integer> log;
    final AtomicInteger running;
    final AtomicInteger maxRunning;
    final CountDownLatch gate;
    final MergeScheduler owner;

    Op(MergeScheduler owner, int id, List<Integer> log, AtomicInteger running,
        AtomicInteger maxRunning, CountDownLatch gate) {
      this.owner = owner;
      this.id = id;
      this.log = log;
      this.running = running;
      this.maxRunning = maxRunning;
      this.gate = gate;
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
      return 1;
    }

    @Override
    public long remainingInputPages() {
      return 1;
    }

    @Override
    public void run() {
      maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
      try {
        gate.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      log.add(id);
      running.decrementAndGet();
      owner.completed(this); // as the engine does right after run() returns
    }

    @Override
    public void pause() {}

    @Override
    public void resume() {}
  }

  @Test
  void runsOneMergeAtATimeInArrivalOrderAndDropsQueuedOnClose() throws Exception {
    MergeScheduler s = Plugins.mergeScheduler(new NamedPlugin("single-thread", Map.of()));
    List<Integer> log = new CopyOnWriteArrayList<>();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger max = new AtomicInteger();
    CountDownLatch open = new CountDownLatch(0);
    for (int i = 0; i < 20; i++) {
      s.schedule(new Op(s, i, log, running, max, open));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (log.size() < 20 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(log).containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20).boxed()
        .toList());
    assertThat(max.get()).isEqualTo(1);

    CountDownLatch gate = new CountDownLatch(1);
    List<Integer> log2 = new CopyOnWriteArrayList<>();
    s.schedule(new Op(s, 100, log2, running, max, gate));
    s.schedule(new Op(s, 101, log2, running, max, gate));
    while (running.get() == 0) {
      Thread.sleep(1);
    }
    new Thread(() -> {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      gate.countDown();
    }).start();
    s.close(); // waits for 100 to finish, drops 101
    assertThat(log2).containsExactly(100);
  }
}
