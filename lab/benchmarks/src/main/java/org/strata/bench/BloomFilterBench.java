package org.strata.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.strata.lsm.component.BloomFilter;
import org.strata.lsm.component.KeyHash;

/**
 * Building a component's {@link BloomFilter} (1% false-positive rate, as the engine builds it)
 * from precomputed key hashes, and one probe of it: a hit (a key the filter holds: every probe
 * position is read) and a miss (a key it does not hold: stops at the first clear bit, or 1% of the
 * time passes). The filter of 10,000 keys (12 KB) stays in the CPU caches; the one of 1,000,000
 * keys (1.2 MB) does not, so its probes miss them.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class BloomFilterBench {
  static final int PROBES = 1 << 16;

  /** Keys in the filter. */
  @Param({"10000", "1000000"})
  public int keys;

  private BloomFilter filter;
  private long[] hashes;
  private long[] present;
  private long[] absent;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    hashes = new long[keys];
    for (int i = 0; i < keys; i++) {
      hashes[i] = KeyHash.hash64(BenchData.key(i));
    }
    filter = BloomFilter.build(hashes, keys, 0.01);
    SplittableRandom r = new SplittableRandom(3);
    present = new long[PROBES];
    absent = new long[PROBES];
    int falsePositives = 0;
    for (int i = 0; i < PROBES; i++) {
      present[i] = hashes[r.nextInt(keys)];
      absent[i] = KeyHash.hash64(BenchData.key(keys + (long) i));
      if (!filter.mightContain(present[i])) {
        throw new IllegalStateException("the Bloom filter lost a key it holds");
      }
      if (filter.mightContain(absent[i])) {
        falsePositives++;
      }
    }
    if (falsePositives > PROBES / 20) {
      throw new IllegalStateException(falsePositives + " false positives in " + PROBES
          + " probes of a 1% filter");
    }
  }

  /**
   * Build the filter of all {@code keys} hashes, as a flush or merge does once per component it
   * writes (the score is per filter; divide by {@code keys} for one key's add).
   */
  @Benchmark
  public BloomFilter build() {
    return BloomFilter.build(hashes, keys, 0.01);
  }

  /** Probe with the hash of a key the filter holds. */
  @Benchmark
  public boolean probeHit() {
    long h = present[next];
    next = (next + 1) & (PROBES - 1);
    return filter.mightContain(h);
  }

  /** Probe with the hash of a key the filter does not hold. */
  @Benchmark
  public boolean probeMiss() {
    long h = absent[next];
    next = (next + 1) & (PROBES - 1);
    return filter.mightContain(h);
  }
}
