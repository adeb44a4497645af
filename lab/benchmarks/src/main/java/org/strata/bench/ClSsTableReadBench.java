package org.strata.bench;

import java.util.Arrays;
import java.util.Map;
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
import org.strata.lsm.Durability;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.MemoryComponentConfig;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.TriadConfig;
import org.strata.lsm.config.HotKeySelector;

/**
 * {@link LsmStore#get} of keys held by one CL-SSTable (TRIAD-LOG, docs/format.md): the index
 * lookup in cached pages, then the read of the value from the log segment (from the OS page
 * cache: this is the CPU and copy cost of the read, not a device's). 10,000 keys of 20 bytes with
 * 200-byte values, the {@code no-merge} policy. Two layouts of the segment:
 *
 * <ul>
 *   <li>{@code put}: TRIAD-LOG alone; each key was written by one {@code put}, so its record holds
 *       one operation;
 *   <li>{@code relogged}: TRIAD-MEM too, with the flush threshold at half the 8 MB memory
 *       component, so the seal of the full component carried every key into the next one,
 *       re-logging them 1,024 to a record (about 230 KB); that component was then flushed, and
 *       every pointer lands in such a record (a key carried while hot, flushed once cold).
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class ClSsTableReadBench {
  static final int KEYS = 10_000;
  static final int VALUE_BYTES = 200;
  static final int PROBES = 1 << 12;
  static final long MEMORY = 8L << 20;

  /** How the keys' operations lie in the segment: see the class comment. */
  @Param({"put", "relogged"})
  public String layout;

  private TempDir dir;
  private LsmStore store;
  private byte[][] probes;

  @Setup(Level.Trial)
  public void setUp() {
    dir = TempDir.create("clsst");
    boolean relogged = layout.equals("relogged");
    StoreConfig config = StoreConfig.defaults()
        .withMergePolicy(new NamedPlugin("no-merge", Map.of()))
        .withDurability(Durability.NONE)
        .withMemoryComponent(MemoryComponentConfig.of(MEMORY, 2))
        .withTriad(new TriadConfig(relogged, HotKeySelector.TOP_K, 1.0,
            ByteSize.ofBytes(MEMORY / 2), true));
    store = LsmStore.open(dir.path().resolve("store"), config);
    try {
      byte[][] values = BenchData.values(KEYS, VALUE_BYTES, 5);
      if (relogged) {
        // overwrite every key until a seal carries them all (their newest versions are below
        // the flush threshold)
        long written = 0;
        while (store.stats().bytes().reloggedEntries() == 0 && written < 100L * KEYS) {
          int i = (int) (written % KEYS);
          store.put(BenchData.key(i), values[i]);
          written++;
        }
        if (store.stats().bytes().reloggedEntries() < KEYS - 1) {
          throw new IllegalStateException("the seal carried "
              + store.stats().bytes().reloggedEntries() + " entries, expected " + KEYS);
        }
        // stop at once: a key written again now would get a record of its own
      } else {
        for (int i = 0; i < KEYS; i++) {
          store.put(BenchData.key(i), values[i]);
        }
      }
      store.flush();
      if (store.runs().size() != 1) {
        throw new IllegalStateException("the store has " + store.runs().size()
            + " runs, expected 1 CL-SSTable");
      }
      for (int i = 0; i < KEYS; i += 97) {
        byte[] v = store.get(BenchData.key(i)).orElseThrow(
            () -> new IllegalStateException("a loaded key is missing"));
        if (!Arrays.equals(v, values[i])) {
          throw new IllegalStateException("a loaded key has another value");
        }
      }
      SplittableRandom r = new SplittableRandom(11);
      probes = new byte[PROBES][];
      for (int i = 0; i < PROBES; i++) {
        probes[i] = BenchData.key(r.nextInt(KEYS));
      }
    } catch (RuntimeException e) {
      tearDown();
      throw e;
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    try {
      store.close();
    } finally {
      dir.close();
    }
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

  /** Looks up a key the CL-SSTable holds. */
  @Benchmark
  public Optional<byte[]> get(Cursor c) {
    return store.get(probes[c.advance()]);
  }
}
