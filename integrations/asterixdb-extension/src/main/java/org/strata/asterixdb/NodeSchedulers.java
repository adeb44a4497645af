package org.strata.asterixdb;

import java.io.Closeable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import org.apache.hyracks.storage.am.lsm.common.api.IIoOperationFailedCallback;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.asterix.StrataIoScheduler;
import org.strata.asterix.StrataIoSchedulerFactory;

/**
 * The Strata I/O schedulers of one node controller: each flush or merge goes to the scheduler
 * the extension's section chooses for its dataset on this node ({@link
 * ExtensionSettings#schedulerFor}); datasets with the same choice share one {@link
 * StrataIoScheduler} (whose {@code scope} then says whether merges are ranked per index or
 * across them). A failed operation is logged here and failed on its index by the scheduler.
 */
public final class NodeSchedulers implements ILSMIOOperationScheduler, Closeable {
  private static final Logger LOG = LogManager.getLogger(NodeSchedulers.class);

  private final String node;
  private final ExtensionSettings settings;
  private final ThreadFactory threads;
  private final Map<Map<String, String>, StrataIoScheduler> schedulers = new LinkedHashMap<>();
  /** The same schedulers, read without the lock by {@link #runsFlushOn} for every page. */
  private final List<StrataIoScheduler> all = new CopyOnWriteArrayList<>();
  private final OperationSizes sizes = new OperationSizes();
  private boolean closed;

  /**
   * @param node the node controller's id
   * @param settings the extension's settings on that node
   * @param threads the node's thread factory
   */
  public NodeSchedulers(String node, ExtensionSettings settings, ThreadFactory threads) {
    this.node = node;
    this.settings = settings;
    this.threads = threads;
  }

  /** The scheduler for a dataset on this node, made on first use. */
  public synchronized StrataIoScheduler schedulerFor(String dataverse, String dataset) {
    if (closed) {
      throw new IllegalStateException("the Strata schedulers of node " + node + " are closed");
    }
    Map<String, String> props = settings.schedulerFor(node, dataverse, dataset);
    return schedulers.computeIfAbsent(props, p -> {
      StrataIoScheduler s = (StrataIoScheduler) new StrataIoSchedulerFactory(p)
          .createIoScheduler(threads, new FailureLog(), 0, 0, 0);
      LOG.info("node {}: Strata scheduler {} ({})", node, s.scheduler(), s.scope());
      all.add(s);
      return s;
    });
  }

  /** True while {@code thread} runs a flush of one of this node's schedulers. */
  public boolean runsFlushOn(Thread thread) {
    for (StrataIoScheduler s : all) {
      if (s.runsFlushOn(thread)) {
        return true;
      }
    }
    return false;
  }

  /** Logs failed operations; the scheduler fails them on their index. */
  private final class FailureLog implements IIoOperationFailedCallback {
    @Override
    public void operationFailed(ILSMIOOperation op, Throwable failure) {
      LOG.error("{} of {} failed on node {}", op.getIOOpertionType(), op.getIndexIdentifier(),
          node, failure);
    }

    @Override
    public void schedulerFailed(ILSMIOOperationScheduler scheduler, Throwable failure) {
      LOG.error("a Strata scheduler of node {} failed", node, failure);
    }
  }

  private StrataIoScheduler schedulerOf(ILSMIOOperation op) {
    IndexPath where = IndexPath.of(op.getIndexIdentifier())
        .or(() -> IndexPath.of(op.getTarget() == null ? null
            : op.getTarget().getAbsolutePath()))
        .orElse(null);
    return where == null ? schedulerFor("", "") : schedulerFor(where.dataverse(), where.dataset());
  }

  @Override
  public void scheduleOperation(ILSMIOOperation op) {
    LSMIOOperationType type = op.getIOOpertionType();
    if (type == LSMIOOperationType.FLUSH || type == LSMIOOperationType.MERGE) {
      sizes.scheduled(op);
      op.addCompleteListener(sizes::completed);
    }
    schedulerOf(op).scheduleOperation(op);
  }

  /** Bytes of the components each index's merges wrote since the node started, by index. */
  public Map<String, Long> mergedBytes() {
    return sizes.mergedBytes();
  }

  @Override
  public void completeOperation(ILSMIOOperation op) {
    schedulerOf(op).completeOperation(op);
  }

  /**
   * The sizes of the components each index flushed since the node started, in flush order, by
   * the index's identifier (its directory): what a merge-policy simulator needs to replay the
   * node's flush sequence ({@link OperationSizes} says when each size is read).
   */
  public Map<String, List<Long>> flushSizes() {
    return sizes.flushSizes();
  }

  /** True when no scheduler of the node has a flush or merge running or waiting. */
  public synchronized boolean idle() {
    for (StrataIoScheduler s : schedulers.values()) {
      if (!s.idle()) {
        return false;
      }
    }
    return true;
  }

  /** The schedulers made so far, by their properties. */
  public synchronized Map<Map<String, String>, StrataIoScheduler> schedulers() {
    return Map.copyOf(schedulers);
  }

  /** Closes every scheduler (paused merges finish; merges that never started fail). */
  @Override
  public void close() {
    Map<Map<String, String>, StrataIoScheduler> all;
    synchronized (this) {
      closed = true;
      all = new LinkedHashMap<>(schedulers);
    }
    all.values().forEach(StrataIoScheduler::close);
  }
}
