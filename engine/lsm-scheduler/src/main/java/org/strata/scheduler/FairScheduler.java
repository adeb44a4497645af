package org.strata.scheduler;

import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.OperationRunner;

/**
 * Luo & Carey's fair scheduler: every scheduled merge starts at once, each on its own thread, and
 * the store's I/O budget is split evenly among the running merges. The split comes from the
 * shared {@link org.strata.lsm.io.IoThrottle}: it serves waiting writers in arrival order in
 * equal-sized chunks, so n merges that all want bandwidth get about 1/n each, and a merge that
 * wants less (CPU-bound, or finishing) leaves its share to the others (work-conserving). Flushes
 * keep priority over all merges. The discrete-event simulator splits its virtual bandwidth the
 * same way among the operations this scheduler has started.
 */
public final class FairScheduler implements MergeScheduler {
  private final OperationRunner runner;

  /** A fair scheduler on threads of its own. */
  public FairScheduler() {
    this(new ThreadOperationRunner("fair"));
  }

  /** A fair scheduler that starts its merges on {@code runner} (and owns it). */
  public FairScheduler(OperationRunner runner) {
    this.runner = runner;
  }

  @Override
  public void schedule(IoOperation op) {
    runner.start(op);
  }

  @Override
  public void completed(IoOperation op) {
    // Nothing to rebalance: the throttle shares the budget among whoever is still writing.
  }

  @Override
  public void close() {
    runner.close();
  }
}
