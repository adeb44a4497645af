package org.strata.peers;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperation.LSMIOOperationType;
import org.apache.hyracks.storage.common.buffercache.IRateLimiter;

/**
 * Hyracks' page-write throttle with a count of the bytes it admitted, by the kind of operation
 * that wrote them: the bytes of flushes and merges as they are written, the same count Strata's
 * own throttle keeps, so the I/O budget use of a Hyracks run is counted as written rather than
 * when an operation completes (a merge running across a window's edge would put all its bytes on
 * one side). The kind is the operation the writing thread is running ({@link
 * HyracksIoCounters#runningOnThisThread()}); pages written outside a flush or merge (a bulk load)
 * are counted apart, and so is the time writers spent inside the throttle.
 */
final class HyracksAdmittedBytes implements IRateLimiter {
  private final IRateLimiter limiter;
  private final HyracksIoCounters operations;
  private final AtomicLong flush = new AtomicLong();
  private final AtomicLong merge = new AtomicLong();
  private final AtomicLong other = new AtomicLong();
  private final AtomicLong waitNanos = new AtomicLong();

  HyracksAdmittedBytes(IRateLimiter limiter, HyracksIoCounters operations) {
    this.limiter = limiter;
    this.operations = operations;
  }

  @Override
  public void setRate(double bytesPerSecond) {
    limiter.setRate(bytesPerSecond);
  }

  @Override
  public void request(int bytes) throws HyracksDataException {
    long start = System.nanoTime();
    limiter.request(bytes);
    waitNanos.addAndGet(System.nanoTime() - start);
    LSMIOOperationType kind = operations.runningOnThisThread();
    (kind == LSMIOOperationType.FLUSH ? flush : kind == LSMIOOperationType.MERGE ? merge : other)
        .addAndGet(bytes);
  }

  /** Bytes admitted to flushes so far. */
  long flushBytes() {
    return flush.get();
  }

  /** Bytes admitted to merges so far. */
  long mergeBytes() {
    return merge.get();
  }

  /** Nanoseconds writers spent in the throttle so far, summed over threads. */
  long waitNanos() {
    return waitNanos.get();
  }

  /** Bytes admitted to writes outside a flush or merge so far. */
  long otherBytes() {
    return other.get();
  }
}
