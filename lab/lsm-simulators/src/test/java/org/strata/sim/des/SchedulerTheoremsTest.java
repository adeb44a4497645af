package org.strata.sim.des;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.OperationRunner;
import org.strata.scheduler.FairScheduler;
import org.strata.scheduler.GreedyScheduler;
import org.strata.scheduler.SingleThreadScheduler;
import org.strata.lsm.testing.property.Lists;
import org.strata.lsm.testing.property.PropertyRunner;

/**
 * Luo & Carey's Theorems 2 and 3 (AC-U1, AC-U2) on the virtual-time disk, driving the real
 * scheduler classes.
 */
class SchedulerTheoremsTest {
  private static final double B = 100;

  /** Runs merges scheduled at time 0 to completion; returns completion times in order. */
  private static List<Double> completions(List<Double> sizes,
      Function<OperationRunner, MergeScheduler> make) {
    VirtualIo io = new VirtualIo(B);
    MergeScheduler s = make.apply(io);
    for (double size : sizes) {
      s.schedule(new DesOperation(IoOperation.Kind.MERGE, "t", size, (long) size, 0));
    }
    List<Double> out = new ArrayList<>();
    DesOperation done;
    while ((done = io.completeNext()) != null) {
      out.add(done.completedAt());
      s.completed(done);
    }
    s.close();
    assertThat(out).hasSize(sizes.size());
    return out;
  }

  /** Merge sizes in pages, and the seed of a random order to compare with. */
  record Case(List<Integer> pages, long seed) {}

  @Test
  void theorem2GreedyCompletesEveryMergeNoLaterThanAnyOtherOrder() {
    PropertyRunner.forAll(r -> new Case(Lists.of(r, 1, 12, x -> 1 + x.nextInt(10_000)),
            r.nextLong()))
        .tries(200)
        .shrinkWith(Lists.shrinking(Case::pages, (c, p) -> new Case(p, c.seed()), 1))
        .check("theorem 2: greedy completes every merge no later than any other order",
            c -> theorem2(c.pages(), c.seed()));
  }

  private static void theorem2(List<Integer> pages, long seed) {
    List<Double> sizes = new ArrayList<>();
    for (int p : pages) {
      sizes.add((double) p);
    }
    List<Double> greedy = completions(sizes, r -> new GreedyScheduler(1, 0, r));
    List<Double> fair = completions(sizes, FairScheduler::new);
    List<Double> fifo = completions(sizes, SingleThreadScheduler::new);
    List<Double> shuffled = new ArrayList<>(sizes);
    Collections.shuffle(shuffled, new Random(seed));
    List<Double> random = completions(shuffled, SingleThreadScheduler::new);
    for (int i = 0; i < sizes.size(); i++) {
      assertThat(greedy.get(i)).isLessThanOrEqualTo(fair.get(i) + 1e-6);
      assertThat(greedy.get(i)).isLessThanOrEqualTo(fifo.get(i) + 1e-6);
      assertThat(greedy.get(i)).isLessThanOrEqualTo(random.get(i) + 1e-6);
    }
  }

  @Test
  void greedyPreemptsALargerMergeWhenASmallerOneArrives() {
    VirtualIo io = new VirtualIo(B);
    GreedyScheduler greedy = new GreedyScheduler(1, 0, io);
    DesOperation big = new DesOperation(IoOperation.Kind.MERGE, "t", 1000, 1000, 0);
    greedy.schedule(big);
    io.advanceTo(2); // 200 bytes of 1000 written
    DesOperation small = new DesOperation(IoOperation.Kind.MERGE, "t", 300, 300, 2);
    greedy.schedule(small);
    assertThat(big.paused()).isTrue();
    assertThat(big.remainingInputPages()).isEqualTo(800);
    DesOperation first = io.completeNext();
    assertThat(first).isSameAs(small);
    assertThat(first.completedAt()).isEqualTo(5.0);
    greedy.completed(first);
    assertThat(big.paused()).isFalse();
    DesOperation second = io.completeNext();
    assertThat(second).isSameAs(big);
    assertThat(second.completedAt()).isEqualTo(13.0);
  }

  /**
   * Section 5.5's counterexample: two-level tiering with T = 2; D1..D3 at the last level, D4, D5
   * at level 0; merging D1 and D2 (D2 deletes most of D1) makes a small merge of the result with
   * D3, |M1-3| < |M4-5| < |M1-2|. Small-first (what greedy does) wins the first completion,
   * large-first wins the second, so no scheduler minimises the component count at every instant.
   */
  @Test
  void theorem3NoSchedulerIsBestAtEveryInstant() {
    Map<String, Double> cost = Map.of("M1-2", 100.0, "M4-5", 60.0, "M1-3", 30.0);
    List<Double> smallFirst = runCounterexample(cost, List.of("M4-5", "M1-2", "M1-3"));
    List<Double> largeFirst = runCounterexample(cost, List.of("M1-2", "M1-3", "M4-5"));
    List<Double> greedy = runCounterexample(cost, null);
    assertThat(greedy).isEqualTo(smallFirst);
    assertThat(smallFirst.get(0)).isLessThan(largeFirst.get(0)); // t1 < t1'
    assertThat(largeFirst.get(1)).isLessThan(smallFirst.get(1)); // t2' < t2
    // Five components at t0, one fewer per completion: at t1 small-first has 4 and large-first
    // 5; at t2' large-first has 3 and small-first 4.
    assertThat(componentsAt(smallFirst, smallFirst.get(0))).isEqualTo(4);
    assertThat(componentsAt(largeFirst, smallFirst.get(0))).isEqualTo(5);
    assertThat(componentsAt(largeFirst, largeFirst.get(1))).isEqualTo(3);
    assertThat(componentsAt(smallFirst, largeFirst.get(1))).isEqualTo(4);
  }

  private static int componentsAt(List<Double> completions, double t) {
    int n = 5;
    for (double c : completions) {
      if (c <= t + 1e-9) {
        n--;
      }
    }
    return n;
  }

  /**
   * Runs the counterexample with a scheduler that starts merges one at a time in {@code order}
   * (or the greedy scheduler when null); M1-3 exists only once M1-2 has completed.
   */
  private static List<Double> runCounterexample(Map<String, Double> cost, List<String> order) {
    VirtualIo io = new VirtualIo(B);
    Map<IoOperation, String> names = new HashMap<>();
    MergeScheduler s = order == null ? new GreedyScheduler(1, 0, io) : new OrderedScheduler(io,
        order, names);
    List<Double> out = new ArrayList<>();
    List<String> initial = new ArrayList<>(List.of("M1-2", "M4-5"));
    if (order != null) {
      initial.sort((a, b) -> order.indexOf(a) - order.indexOf(b)); // both exist at t0
    }
    for (String n : initial) {
      DesOperation op = new DesOperation(IoOperation.Kind.MERGE, "t", cost.get(n),
          (long) (double) cost.get(n), 0);
      names.put(op, n);
      s.schedule(op);
    }
    DesOperation done;
    while ((done = io.completeNext()) != null) {
      out.add(done.completedAt());
      if (names.get(done).equals("M1-2")) {
        DesOperation m13 = new DesOperation(IoOperation.Kind.MERGE, "t", cost.get("M1-3"),
            (long) (double) cost.get("M1-3"), done.completedAt());
        names.put(m13, "M1-3");
        s.schedule(m13);
      }
      s.completed(done);
    }
    return out;
  }

  /** One merge at a time, always the earliest in a fixed order among those scheduled. */
  private static final class OrderedScheduler implements MergeScheduler {
    private final OperationRunner runner;
    private final List<String> order;
    private final Map<IoOperation, String> names;
    private final ArrayDeque<IoOperation> waiting = new ArrayDeque<>();
    private IoOperation running;

    OrderedScheduler(OperationRunner runner, List<String> order, Map<IoOperation, String> names) {
      this.runner = runner;
      this.order = order;
      this.names = names;
    }

    @Override
    public void schedule(IoOperation op) {
      waiting.add(op);
      next();
    }

    @Override
    public void completed(IoOperation op) {
      running = null;
      next();
    }

    private void next() {
      if (running != null || waiting.isEmpty()) {
        return;
      }
      IoOperation best = null;
      for (IoOperation op : waiting) {
        if (best == null || order.indexOf(names.get(op)) < order.indexOf(names.get(best))) {
          best = op;
        }
      }
      waiting.remove(best);
      running = best;
      runner.start(best);
    }

    @Override
    public void close() {}
  }
}
