package org.strata.ycsb.twophase;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Recorder;

/**
 * Query threads alongside a running phase (Luo & Carey 5.2.3, 7.2): point lookups of random loaded
 * keys, short scans of 100 records, or long scans, each from a random key, or secondary-index
 * queries of a random range of {@code selectivity} values ({@link SecondaryQuery}), as fast as
 * they complete.
 */
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
      Thread t = new Thread(() -> {
        try {
          while (!stop.get()) {
            long start = System.nanoTime();
            switch (spec.kind()) {
              case "point" -> dataset.get(RecordShape.key(random.nextLong(keys)));
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
