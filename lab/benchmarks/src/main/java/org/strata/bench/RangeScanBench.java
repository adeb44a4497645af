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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.strata.lsm.KeyValue;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.ScanCursor;

/**
 * {@link LsmStore#scan} of 100 or 10,000 consecutive entries from a random existing key, through a
 * real store of 1 or 5 disk components (see {@link StoreFixture}: 200,000 entries of 20-byte keys
 * and 100-byte values, no merges, all pages in the page cache after warm-up). Opening the scan
 * takes a snapshot and positions one cursor per component; the merge of the components then yields
 * the entries in order. The score is per scan.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class RangeScanBench {
  static final int ENTRIES = 200_000;
  static final int STARTS = 1 << 12;

  /** Entries read per scan. */
  @Param({"100", "10000"})
  public int length;

  /** Disk components in the store. */
  @Param({"1", "5"})
  public int components;

  private StoreFixture fixture;
  private LsmStore store;
  private byte[][] starts;

  @Setup(Level.Trial)
  public void setUp() {
    fixture = StoreFixture.build("scan", ENTRIES, components, BenchData.values(64, 100, 9));
    store = fixture.store();
    byte[][] sorted = BenchData.sortedKeys(0, ENTRIES);
    SplittableRandom r = new SplittableRandom(10);
    starts = new byte[STARTS][];
    for (int i = 0; i < STARTS; i++) {
      starts[i] = sorted[r.nextInt(ENTRIES - length)];
    }
    int n = read(starts[0], null);
    if (n != length) {
      throw new IllegalStateException("a scan of " + length + " entries returned " + n);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    fixture.close();
  }

  /** Per-thread position in the start keys. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;

    int advance() {
      int i = next;
      next = (next + 1) & (STARTS - 1);
      return i;
    }
  }

  /** Reads {@code length} entries from {@code from}, consumed by {@code bh} when not null. */
  private int read(byte[] from, Blackhole bh) {
    int n = 0;
    try (ScanCursor c = store.scan(from, null)) {
      while (n < length && c.hasNext()) {
        KeyValue kv = c.next();
        if (bh != null) {
          bh.consume(kv.key());
          bh.consume(kv.value());
        }
        n++;
      }
    }
    return n;
  }

  /** Opens a scan at a random existing key and reads {@code length} entries. */
  @Benchmark
  public int scan(Cursor c, Blackhole bh) {
    return read(starts[c.advance()], bh);
  }
}
