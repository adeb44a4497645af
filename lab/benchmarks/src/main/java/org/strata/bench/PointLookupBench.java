package org.strata.bench;

import java.util.Optional;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.strata.lsm.engine.LsmStore;

/**
 * {@link LsmStore#get} through 1, 5 or 20 disk components of a real store (see {@link
 * StoreFixture}: 200,000 entries of 20-byte keys and 100-byte values, no merges, every component
 * spanning the whole key range, empty memory components). The store's 128 MB page cache holds all
 * 26 MB of it after warm-up, so this is the CPU path: the snapshot, a Bloom filter probe per
 * component, and one root-to-leaf descent in cached pages where the filter says yes. An existing
 * key is found after probing, on average, half of the components; a missing key probes all of
 * them and descends only on the 1% false positives.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class PointLookupBench {
  static final int ENTRIES = 200_000;
  static final int PROBES = 1 << 14;

  /** Disk components in the store. */
  @Param({"1", "5", "20"})
  public int components;

  private StoreFixture fixture;
  private LsmStore store;
  private byte[][] existing;
  private byte[][] missing;

  @Setup(Level.Trial)
  public void setUp() {
    fixture = StoreFixture.build("lookup", ENTRIES, components, BenchData.values(64, 100, 7));
    store = fixture.store();
    SplittableRandom r = new SplittableRandom(8);
    existing = new byte[PROBES][];
    missing = new byte[PROBES][];
    for (int i = 0; i < PROBES; i++) {
      existing[i] = BenchData.key(r.nextInt(ENTRIES));
      missing[i] = BenchData.key(ENTRIES + (long) r.nextInt(ENTRIES));
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    fixture.close();
  }

  /** Per-thread position in the probe keys. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;

    int advance() {
      int i = next;
      next = (next + 1) & (PROBES - 1);
      return i;
    }
  }

  /** Looks up a key the store holds. */
  @Benchmark
  public Optional<byte[]> getExisting(Cursor c) {
    return store.get(existing[c.advance()]);
  }

  /** Looks up a key the store never held (inside its key range). */
  @Benchmark
  public Optional<byte[]> getMissing(Cursor c) {
    return store.get(missing[c.advance()]);
  }
}
