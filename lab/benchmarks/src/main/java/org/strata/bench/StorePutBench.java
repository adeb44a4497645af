package org.strata.bench;

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
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.config.StoreConfig;

/**
 * The whole write path: {@link LsmStore#put} of a 20-byte key in random order into a real store
 * with the default configuration ({@code group} durability: the log is forced every 10 ms by a
 * background task; two 64 MB memory components; the {@code constant} policy with 5 components;
 * flushes and merges running in the background on the same two cores), one writer. Write-stalls
 * count: when both memory components are full the put waits for a flush. Keys cycle through
 * 1,048,576 ids, so after the first pass puts overwrite keys that are already on disk.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class StorePutBench {
  static final int KEYS = 1 << 20;

  /** Bytes of each value. */
  @Param({"100", "1000"})
  public int valueSize;

  private TempDir dir;
  private LsmStore store;
  private byte[][] keys;
  private byte[][] values;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    StoreConfig config = StoreConfig.defaults();
    if (config.log().durability() != Durability.GROUP) {
      throw new IllegalStateException("the default durability is no longer group");
    }
    keys = BenchData.keys(0, KEYS);
    values = BenchData.values(64, valueSize, 12);
    dir = TempDir.create("put");
    try {
      store = LsmStore.open(dir.path().resolve("store"), config);
    } catch (RuntimeException e) {
      dir.close(); // JMH does not tear down a state whose setup failed
      throw e;
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    try {
      int last = (next - 1) & (KEYS - 1);
      byte[] v = store.get(keys[last]).orElseThrow(
          () -> new IllegalStateException("the last key put is not in the store"));
      if (v.length != valueSize) {
        throw new IllegalStateException("the last key put has " + v.length + " value bytes");
      }
      store.close();
    } finally {
      dir.close();
    }
  }

  /** One put of a key with a {@code valueSize}-byte value. */
  @Benchmark
  public void put() {
    int i = next;
    next = (next + 1) & (KEYS - 1);
    store.put(keys[i], values[i & 63]);
  }
}
