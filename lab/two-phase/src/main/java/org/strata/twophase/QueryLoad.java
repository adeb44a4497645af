package org.strata.twophase;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Recorder;
import org.strata.sim.des.ArrivalProcess;

/**
 * Query threads alongside a running phase (Luo & Carey 5.2.3, 7.2): point lookups of random loaded
 * keys or of keys never written (zero-result lookups, above the loaded range), short scans of
 * 100 records, or long scans, each from a random key, or secondary-index
 * queries of a random range of {@code selectivity} values ({@link SecondaryQuery}), as fast as
 * they complete, or paced by {@code running.queries.bursts}: each thread issues its share of the
 * pattern's rate, a query at each of its arrival times, and one that falls behind by more than a
 * second skips the arrivals it missed rather than catching up in a burst.
 */
@SuppressWarnings("try") // close() throws what the wrapped system's close throws, as Exception
final class QueryLoad implements AutoCloseable {

  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicLong count = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicReference<Exception> failure =
      new java.util.concurrent.atomic.AtomicReference<>();
  private final Recorder latency = new Recorder(3);
  private final List<Thread> threads = new ArrayList<>();
  private final TwoPhaseConfig.Queries spec;
  private final long startNanos = System.nanoTime();
  private long endNanos;

  QueryLoad(QueryTarget dataset, TwoPhaseConfig.Queries spec, long keys, long seed) {
    this.spec = spec;
    for (int i = 0; i < spec.threads(); i++) {
      SplittableRandom random = new SplittableRandom(seed * 31 + i);
      ArrivalProcess pace = spec.bursts() == null ? null : share(spec.bursts(), spec.threads());
      Thread t = new Thread(() -> {
        try {
          while (!stop.get()) {
            if (pace != null && !awaitArrival(pace)) {
              break;
            }
            long start = System.nanoTime();
            switch (spec.kind()) {
              case "point" -> dataset.get(RecordShape.key(random.nextLong(keys)));
              case "zero-result" -> dataset.get(RecordShape.key(keys + random.nextLong(keys)));
              case "short-scan" -> dataset.scan(RecordShape.key(random.nextLong(keys)), 100);
              case "secondary" -> SecondaryQuery.run(dataset, spec.index(), keys,
                  spec.selectivity(), random);
              default -> dataset.scan(RecordShape.key(random.nextLong(keys)),
                  spec.longScanLength());
            }
            latency.recordValue((System.nanoTime() - start) / 1000);
            count.incrementAndGet();
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }, "strata-query-" + i);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
  }

  /** One thread's share of a burst pattern over all threads. */
  private static ArrivalProcess share(String bursts, int threads) {
    java.util.List<ArrivalProcess.Burst> mine = new ArrayList<>();
    for (ArrivalProcess.Burst b : ArrivalProcess.Burst.parseAll(bursts)) {
      mine.add(new ArrivalProcess.Burst(b.rate() / threads, b.seconds()));
    }
    return ArrivalProcess.bursts(mine);
  }

  /**
   * Parks until the next arrival of {@code pace} (seconds since the load started); skips arrivals
   * more than a second late. False if the load stopped meanwhile.
   */
  private boolean awaitArrival(ArrivalProcess pace) {
    long now = System.nanoTime();
    long due = startNanos + (long) (pace.next() * 1e9);
    while (due < now - 1_000_000_000L) {
      due = startNanos + (long) (pace.next() * 1e9);
    }
    while ((now = System.nanoTime()) < due) {
      if (stop.get()) {
        return false;
      }
      LockSupport.parkNanos(Math.min(due - now, 50_000_000L));
    }
    return !stop.get();
  }

  /** Queries completed so far. */
  long completed() {
    return count.get();
  }

  /** Stops the query threads; rethrows the first query failure. */
  @Override
  public void close() throws Exception {
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    endNanos = System.nanoTime();
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  PhaseResult.QueryResult result() {
    double seconds = Math.max(1e-9, (endNanos - startNanos) / 1e9);
    return new PhaseResult.QueryResult(spec.kind(), spec.threads(), count.get(),
        count.get() / seconds, Latency.of(latency.getIntervalHistogram()));
  }
}
