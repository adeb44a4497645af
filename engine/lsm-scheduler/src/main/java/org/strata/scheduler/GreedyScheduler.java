package org.strata.scheduler;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.OperationRunner;

/**
 * Luo & Carey's greedy scheduler (Figure 7 of the paper): all merge bandwidth goes to the merge
 * with the fewest remaining input pages; the others are paused. With {@code max-concurrent-merges}
 * k > 1 the k smallest run. The choice is re-evaluated whenever a merge arrives or completes, and
 * every {@code recheck-ms} while several are active (remaining pages shrink as merges progress), so
 * a smaller arriving merge pauses the running one at its next entry, well within one page.
 * Flushes keep priority through the throttle.
 */
public final class GreedyScheduler implements MergeScheduler {
  private final int maxRunning;
  private final OperationRunner runner;
  private final List<IoOperation> active = new ArrayList<>();
  private final List<IoOperation> running = new ArrayList<>();
  private final ScheduledExecutorService recheck;

  /**
   * @param maxRunning k, the number of smallest merges that run at once
   * @param recheckMillis period of re-evaluation while merges are active (0 to disable)
   */
  public GreedyScheduler(int maxRunning, long recheckMillis) {
    this(maxRunning, recheckMillis, new ThreadOperationRunner("greedy"));
  }

  /**
   * A greedy scheduler that starts its merges on {@code runner} (and owns it). On a virtual-time
   * runner there is no periodic re-evaluation: every arrival and completion is a call already.
   *
   * @param maxRunning k, the number of smallest merges that run at once
   * @param recheckMillis period of re-evaluation while merges are active (0 to disable)
   */
  public GreedyScheduler(int maxRunning, long recheckMillis, OperationRunner runner) {
    this.maxRunning = maxRunning;
    this.runner = runner;
    if (recheckMillis > 0 && !runner.virtualTime()) {
      this.recheck = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "strata-greedy-recheck");
        t.setDaemon(true);
        return t;
      });
      recheck.scheduleWithFixedDelay(this::rebalance, recheckMillis, recheckMillis,
          TimeUnit.MILLISECONDS);
    } else {
      this.recheck = null;
    }
  }

  @Override
  public void schedule(IoOperation op) {
    op.pause(); // it starts only when chosen
    synchronized (this) {
      active.add(op);
    }
    runner.start(op);
    rebalance();
  }

  @Override
  public void completed(IoOperation op) {
    synchronized (this) {
      active.remove(op);
      running.remove(op);
    }
    rebalance();
  }

  /** Resumes the k merges with the fewest remaining pages and pauses the rest. */
  synchronized void rebalance() {
    List<IoOperation> order = new ArrayList<>(active);
    order.sort(Comparator.comparingLong(IoOperation::remainingInputPages));
    List<IoOperation> chosen = order.subList(0, Math.min(maxRunning, order.size()));
    for (IoOperation op : new ArrayList<>(running)) {
      if (!chosen.contains(op)) {
        op.pause();
        running.remove(op);
      }
    }
    for (IoOperation op : chosen) {
      if (!running.contains(op)) {
        running.add(op);
        op.resume();
      }
    }
  }

  /** The merges currently allowed to run (for tests and statistics). */
  public synchronized List<IoOperation> running() {
    return List.copyOf(running);
  }

  @Override
  public void close() {
    if (recheck != null) {
      recheck.shutdownNow();
    }
    List<IoOperation> all;
    synchronized (this) {
      all = new ArrayList<>(active);
    }
    for (IoOperation op : all) {
      op.resume(); // paused merges must run to notice the closing store and return
    }
    runner.close();
  }
}
