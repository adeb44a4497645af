package org.strata.asterix;

import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationStatus;
import org.apache.hyracks.storage.am.lsm.common.impls.MergeOperation;
import org.strata.lsm.spi.IoOperation;

/**
 * A Hyracks merge as the Strata {@link IoOperation} a Strata scheduler works with. {@link #run()}
 * calls the Hyracks operation, reports a failure to Hyracks' failure callback, completes the
 * operation (which wakes whoever waits on it) and tells the scheduler. {@link #pause()} and {@link
 * #resume()} are Hyracks' own: a paused merge stops at its next check, every 1,000 tuples, and
 * {@link #remainingInputPages()} is Hyracks' count of input pages its merge cursor has not read.
 *
 * <p>The started and paused flags change under the owning {@link StrataIoScheduler}'s monitor, and
 * the owner takes a listener's views of a merge and of its index's other merges under the same
 * monitor: a view never shows a merge running that a scheduler had paused before it resumed
 * another (a scheduler pauses first, then resumes).
 */
final class HyracksIoOperation implements IoOperation {
  private final long id;
  private final ILSMIOOperation op;
  private final long totalPages;
  private final StrataIoScheduler owner;
  private volatile boolean started;
  private volatile boolean paused;
  private volatile boolean done;

  HyracksIoOperation(long id, ILSMIOOperation op, StrataIoScheduler owner) {
    this.id = id;
    this.op = op;
    this.owner = owner;
    this.totalPages = op instanceof MergeOperation ? ((MergeOperation) op).getTotalPages()
        : Math.max(0, op.getRemainingPages());
  }

  ILSMIOOperation hyracksOperation() {
    return op;
  }

  @Override
  public Kind kind() {
    return Kind.MERGE;
  }

  @Override
  public String indexName() {
    return op.getIndexIdentifier();
  }

  @Override
  public long totalInputPages() {
    return totalPages;
  }

  @Override
  public long remainingInputPages() {
    return Math.max(0, op.getRemainingPages());
  }

  @Override
  public void run() {
    synchronized (owner) {
      started = true;
    }
    owner.mergeStarted(this);
    boolean success = false;
    try {
      LSMIOOperationStatus status = op.call();
      success = status == LSMIOOperationStatus.SUCCESS;
    } catch (Throwable t) { // a merge thread must always complete its operation
      op.setFailure(t);
    }
    done = true;
    owner.mergeReturned(this, success);
  }

  @Override
  public void pause() {
    synchronized (owner) {
      paused = true;
    }
    op.pause();
    owner.pausedByScheduler(this);
  }

  @Override
  public void resume() {
    synchronized (owner) {
      paused = false;
    }
    op.resume();
    owner.resumedByScheduler(this);
  }

  MergeListener.MergeView view() {
    return new MergeListener.MergeView(id, op.getIndexIdentifier(), remainingInputPages(),
        running());
  }

  /** Whether the scheduler's runner has called {@link #run()}. */
  boolean started() {
    return started;
  }

  /** Started by the scheduler's runner, not paused, not returned. */
  boolean running() {
    return started && !paused && !done;
  }
}
