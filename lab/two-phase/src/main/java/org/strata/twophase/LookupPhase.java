package org.strata.twophase;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;
import org.HdrHistogram.Recorder;

/**
 * Random gets of loaded keys against an open system, checking every value: each get draws a
 * record id uniformly from the loaded ones, times {@link SystemUnderTest#read} alone, and
 * compares the value's length and CRC32C with the loaded value's (computed before any timing).
 * A missing or different value fails the phase naming the key.
 */
public final class LookupPhase {
  private final SystemUnderTest sut;
  private final long[] expected;
  private final long seed;

  /**
   * @param sut the open system
   * @param expected per record id, {@link #fingerprint} of its loaded value
   * @param seed seeds the key choice of each thread
   */
  public LookupPhase(SystemUnderTest sut, long[] expected, long seed) {
    this.sut = sut;
    this.expected = expected;
    this.seed = seed;
  }

  /** A value's length and CRC32C in one long, what each get is checked against. */
  public static long fingerprint(byte[] value) {
    CRC32C c = new CRC32C();
    c.update(value);
    return ((long) value.length << 32) | c.getValue();
  }

  /** Runs {@code threads} threads of gets for {@code seconds} seconds, unmeasured. */
  public void warmUp(int threads, double seconds) throws Exception {
    if (seconds > 0) {
      gets(threads, seconds, null, 0);
    }
  }

  /** Runs {@code threads} threads of gets for {@code seconds} seconds and measures them. */
  public LookupResult.Run run(int threads, double seconds) throws Exception {
    CacheCounters before = sut.cacheCounters();
    Recorder latency = new Recorder(3);
    long t0 = System.nanoTime();
    long gets = gets(threads, seconds, latency, threads * 7919L);
    double elapsed = (System.nanoTime() - t0) / 1e9;
    CacheCounters after = sut.cacheCounters();
    return new LookupResult.Run(threads, elapsed, gets,
        Latency.ofNanos(latency.getIntervalHistogram()),
        before == null || after == null ? Double.NaN : after.hitRatioSince(before));
  }

  private long gets(int threads, double seconds, Recorder latency, long salt) throws Exception {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    AtomicLong done = new AtomicLong();
    AtomicReference<Exception> failure = new AtomicReference<>();
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + salt + t);
      Thread th = new Thread(() -> {
        long n = 0;
        try {
          while (failure.get() == null && System.nanoTime() < end) {
            int id = rnd.nextInt(expected.length);
            String key = RecordShape.key(id);
            long s = System.nanoTime();
            byte[] v = sut.read(key);
            long e = System.nanoTime();
            if (v == null) {
              throw new IllegalStateException("a get of loaded key " + key
                  + " found nothing");
            }
            if (fingerprint(v) != expected[id]) {
              throw new IllegalStateException("a get of loaded key " + key + " returned a"
                  + " different value (" + v.length + " bytes, expected "
                  + (expected[id] >>> 32) + " bytes with another checksum)");
            }
            if (latency != null) {
              latency.recordValue(e - s);
            }
            n++;
          }
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        } finally {
          done.addAndGet(n);
        }
      }, "strata-lookup-" + t);
      th.start();
      ts.add(th);
    }
    for (Thread th : ts) {
      th.join();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return done.get();
  }
}
