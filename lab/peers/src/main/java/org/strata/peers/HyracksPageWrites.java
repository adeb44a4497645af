package org.strata.peers;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.api.io.IPersistedResourceRegistry;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMPageWriteCallbackFactory;
import org.apache.hyracks.storage.am.lsm.common.impls.LSMIndexPageWriteCallback;
import org.apache.hyracks.storage.common.IResource;
import org.apache.hyracks.storage.common.buffercache.IPageWriteCallback;
import org.apache.hyracks.storage.common.buffercache.IRateLimiter;
import org.apache.hyracks.storage.common.buffercache.NoOpRateLimiter;
import org.apache.hyracks.storage.common.buffercache.SleepRateLimiter;

/**
 * Hyracks' own page-write throttle, wired as AsterixDB 0.9.8 wires it: every flush, merge and
 * bulk-load page goes through one shared {@code SleepRateLimiter} ({@code
 * storage.write.rate.limit}) and the component is forced every {@code pagesPerForce} pages ({@code
 * storage.disk.force.bytes} over the page size), by Hyracks' {@code LSMIndexPageWriteCallback}.
 * Standalone use only.
 */
public final class HyracksPageWrites implements ILSMPageWriteCallbackFactory {
  private static final long serialVersionUID = 1L;

  private final transient HyracksAdmittedBytes limiter;
  private final int pagesPerForce;

  /**
   * @param bytesPerSecond the write budget, 0 for none
   * @param forceBytes bytes between forces
   * @param pageSize bytes of a page
   * @param operations which flush or merge each thread runs, to count admitted bytes by kind
   */
  public HyracksPageWrites(long bytesPerSecond, long forceBytes, int pageSize,
      HyracksIoCounters operations) {
    IRateLimiter throttle = bytesPerSecond > 0 ? SleepRateLimiter.create(bytesPerSecond)
        : NoOpRateLimiter.INSTANCE;
    this.limiter = new HyracksAdmittedBytes(throttle, operations);
    this.pagesPerForce = (int) Math.max(1, forceBytes / pageSize);
  }

  /** Bytes the throttle admitted to flushes so far. */
  public long flushBytesAdmitted() {
    return limiter.flushBytes();
  }

  /** Bytes the throttle admitted to merges so far. */
  public long mergeBytesAdmitted() {
    return limiter.mergeBytes();
  }

  /** Nanoseconds page writers spent in the throttle so far, summed over threads. */
  public long throttleWaitNanos() {
    return limiter.waitNanos();
  }

  /** Bytes the throttle admitted to page writes outside any flush or merge so far. */
  public long otherBytesAdmitted() {
    return limiter.otherBytes();
  }

  /** Lifts the write budget, so merges still running when a phase ends finish quickly. */
  public void unthrottle() {
    limiter.setRate(1e12);
  }

  @Override
  public void initialize(INCServiceContext ctx, IResource resource) {}

  @Override
  public IPageWriteCallback createPageWriteCallback() {
    return new LSMIndexPageWriteCallback(limiter, pagesPerForce);
  }

  @Override
  public JsonNode toJson(IPersistedResourceRegistry registry) throws HyracksDataException {
    throw new UnsupportedOperationException("standalone trees are not persisted as resources");
  }
}
