package org.strata.asterixdb;

import java.util.function.Predicate;
import org.apache.asterix.common.api.IDiskWriteRateLimiterProvider;
import org.apache.hyracks.api.application.INCServiceContext;
import org.apache.hyracks.api.exceptions.HyracksDataException;
import org.apache.hyracks.storage.common.IResource;
import org.apache.hyracks.storage.common.buffercache.IRateLimiter;
import org.strata.lsm.io.Clock;
import org.strata.lsm.io.IoBudgetCounters;
import org.strata.lsm.io.IoThrottle;

/**
 * Strata's I/O budget in front of every page AsterixDB writes on one node controller, without a
 * change to AsterixDB: AsterixDB 0.9.8's page-write callback asks its application context's rate
 * limiter provider for a limiter when an index is opened and asks that limiter for each page's
 * bytes before it writes the page of a flush, merge or bulk load. This provider hands every
 * index of every partition of the node the same limiter over one {@link IoThrottle} (AsterixDB's
 * own provider gives each partition a budget of its own), and a page written on a thread that
 * runs a flush of one of the node's Strata schedulers goes ahead of merges, as in Strata's
 * engine. {@link StrataNCApplication} installs it when the extension's section sets {@code
 * io.write-rate-limit}. Forces stay AsterixDB's, every {@code storage.disk.force.bytes} (16 MB
 * by default, Strata's {@code io.force-bytes} default too).
 */
public final class StrataRateLimiterProvider implements IDiskWriteRateLimiterProvider {
  private final IoThrottle throttle;
  private final Predicate<Thread> flushThread;
  private final IRateLimiter limiter = new Limiter();

  /**
   * @param bytesPerSecond the node's budget
   * @param clock the clock the throttle sleeps on
   * @param flushThread true for a thread running a flush
   */
  public StrataRateLimiterProvider(long bytesPerSecond, Clock clock,
      Predicate<Thread> flushThread) {
    this.throttle = new IoThrottle(bytesPerSecond, clock);
    this.flushThread = flushThread;
  }

  @Override
  public IRateLimiter getRateLimiter(INCServiceContext ctx, IResource resource) {
    return limiter;
  }

  /** The node's budget in bytes per second. */
  public long bytesPerSecond() {
    return throttle.bytesPerSecond();
  }

  /** Where the node's budget went so far. */
  public IoBudgetCounters counters() {
    return throttle.counters();
  }

  /** The one limiter of the node. */
  private final class Limiter implements IRateLimiter {
    /** AsterixDB sets its own limiters' rates; the node's budget is Strata's, so it stays. */
    @Override
    public void setRate(double bytesPerSecond) {
      // the budget comes from io.write-rate-limit
    }

    @Override
    public void request(int bytes) throws HyracksDataException {
      try {
        throttle.acquire(bytes, flushThread.test(Thread.currentThread()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw HyracksDataException.create(e);
      }
    }
  }
}
