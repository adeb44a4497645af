package org.strata.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;
import org.strata.lsm.memory.MemoryComponent;

/**
 * Inserts into the active {@link MemoryComponent} (the skip list plus its byte-budget accounting),
 * with one writer and with two writers sharing the component. Each writer inserts its own distinct
 * 20-byte keys in random order with a value of {@code valueBytes} (100, and 1,000 as in the load
 * compared with RocksDB's {@code db_bench}); once the component holds its 64 MB budget
 * (the engine's default memory component size) it is replaced by an empty one, as a flush would,
 * so the score averages inserts over a component's whole life. The component copies each key and
 * value into its arena, so the value size counts twice: in the copy and in how many entries a
 * component holds. Throughput is the sum over the writers.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class MemoryComponentInsertBench {
  /** The memory budget of one component: the engine's default {@code memory-component.size}. */
  static final long BUDGET = 64L << 20;
  /** Keys per writer; more than a component holds, so a key is rarely still in the active one. */
  static final int KEYS_PER_WRITER = 1 << 20;

  /** The component the writers share, replaced when full. */
  @State(Scope.Benchmark)
  public static class Shared {
    /** Bytes of every value. */
    @Param({"100", "1000"})
    int valueBytes;

    final AtomicReference<MemoryComponent> active = new AtomicReference<>();
    final AtomicLong nextId = new AtomicLong();

    @Setup(Level.Iteration)
    public void freshComponent() {
      active.set(new MemoryComponent(nextId.incrementAndGet()));
    }

    void put(byte[] key, byte[] value, long lsn) {
      MemoryComponent c = active.get();
      c.put(key, value, lsn);
      if (c.sizeBytes() >= BUDGET) {
        active.compareAndSet(c, new MemoryComponent(nextId.incrementAndGet()));
      }
    }
  }

  /** One writer's keys, value and sequence numbers. */
  @State(Scope.Thread)
  public static class Writer {
    byte[][] keys;
    byte[] value;
    int next;
    long lsn;

    @Setup(Level.Trial)
    public void setUp(ThreadParams thread, Shared shared) {
      int t = thread.getThreadIndex();
      keys = BenchData.keys((long) t * KEYS_PER_WRITER, KEYS_PER_WRITER);
      value = BenchData.values(1, shared.valueBytes, t)[0];
      lsn = (long) t << 40;
    }

    byte[] nextKey() {
      byte[] k = keys[next];
      next = next + 1 == keys.length ? 0 : next + 1;
      return k;
    }
  }

  /** One writer inserting a new key. */
  @Benchmark
  @Threads(1)
  public void insertOneWriter(Shared shared, Writer w) {
    shared.put(w.nextKey(), w.value, ++w.lsn);
  }

  /** Two writers inserting new keys into the same component concurrently (total throughput). */
  @Benchmark
  @Threads(2)
  public void insertTwoWriters(Shared shared, Writer w) {
    shared.put(w.nextKey(), w.value, ++w.lsn);
  }
}
