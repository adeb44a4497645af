package org.strata.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.strata.lsm.component.ComponentMeta;
import org.strata.lsm.component.ComponentWriter;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.io.WritableFile;

/**
 * The write side of a flush or merge: {@link ComponentWriter} bulk-loading a component of 200,000
 * sorted entries (20-byte keys, values of {@code valueBytes}) in 4 KB pages, leaves, interior
 * levels, Bloom filter, key sketch, meta page and footer, into a file that keeps nothing (so the
 * score is the writer's work and allocation, not the disk's). With 1,000-byte values the component
 * has about 67,000 leaves. The score is per entry; run with {@code -prof gc} for the bytes
 * allocated per entry.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class ComponentWriteBench {
  static final int ENTRIES = 200_000;

  /** Bytes per value: 100, or 1,000 as in the comparison runs' records. */
  @Param({"100", "1000"})
  public int valueBytes;

  private byte[][] keys;
  private byte[][] values;

  @Setup(Level.Trial)
  public void setUp() {
    keys = BenchData.sortedKeys(0, ENTRIES);
    values = BenchData.values(64, valueBytes, 11);
  }

  /** A file that counts what is written and keeps nothing. */
  private static final class DiscardingFile implements WritableFile {
    private long size;

    @Override
    public void write(ByteBuffer buf) {
      size += buf.remaining();
      buf.position(buf.limit());
    }

    @Override
    public void force() {}

    @Override
    public long size() {
      return size;
    }

    @Override
    public void close() {}
  }

  @Benchmark
  @OperationsPerInvocation(ENTRIES)
  public ComponentMeta writeComponent() throws IOException {
    try (ComponentWriter w = new ComponentWriter(new DiscardingFile(), IoThrottle.unlimited(),
        0, BenchComponentLoader.PAGE_SIZE, 0.01, 1, 1, ENTRIES, 0)) {
      for (int i = 0; i < ENTRIES; i++) {
        w.add(keys[i], values[i & 63]);
      }
      return w.finish();
    }
  }
}
