package org.strata.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.strata.lsm.component.DiskComponent;
import org.strata.lsm.component.EntryCursor;
import org.strata.lsm.component.PageCache;
import org.strata.lsm.component.ReadAheadBuffer;
import org.strata.lsm.engine.MergingCursor;
import org.strata.lsm.memory.MemoryComponent;

/**
 * The k-way merge of a merge's read side: a {@link MergingCursor} over N runs, drained to the end
 * as a merge drains it (each key, and each value as the slice a merge writes out), with 100,000
 * entries in all (20-byte keys, values of {@code valueBytes}) dealt at random to the N runs, so
 * every run spans the whole key range. {@code memory}: the runs are memory components (the merge
 * heap and the cursors alone); {@code disk}: they are real component files read with the
 * sequential leaf scanner a merge uses (1 MB reads from the operating system's page cache, CRC32C
 * checks, page decoding). The score is per input entry.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Thread)
public class MergeBench {
  static final int ENTRIES = 100_000;

  /** Number of runs merged. */
  @Param({"2", "8", "32"})
  public int runs;

  /** {@code memory} or {@code disk} runs. */
  @Param({"memory", "disk"})
  public String source;

  /** Bytes per value: 100, or 1,000 as in the comparison runs' records. */
  @Param({"100", "1000"})
  public int valueBytes;

  private TempDir dir;
  private final List<MemoryComponent> memory = new ArrayList<>();
  private final List<DiskComponent> disk = new ArrayList<>();
  /**
   * One read buffer per disk run, kept across invocations as a merge keeps one for all the files
   * of a run: without it each invocation allocated N fresh 1 MB buffers, and the score swung
   * with how much fresh heap the collector had to hand out, not with the merge.
   */
  private final List<ReadAheadBuffer> readAhead = new ArrayList<>();

  @Setup(Level.Trial)
  public void setUp() {
    byte[][] values = BenchData.values(64, valueBytes, 6);
    List<List<byte[]>> perRun = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      perRun.add(new ArrayList<>());
    }
    // Ids are in random key order, so dealing them round-robin spreads each run over all keys.
    for (int i = 0; i < ENTRIES; i++) {
      perRun.get(i % runs).add(BenchData.key(i));
    }
    switch (source) {
      case "memory" -> {
        for (int r = 0; r < runs; r++) {
          MemoryComponent m = new MemoryComponent(r);
          int v = 0;
          for (byte[] k : perRun.get(r)) {
            m.put(k, values[v++ & 63], 1);
          }
          memory.add(m);
        }
      }
      case "disk" -> {
        dir = TempDir.create("merge");
        PageCache cache = new PageCache(0);
        for (int r = 0; r < runs; r++) {
          byte[][] sorted = perRun.get(r).toArray(new byte[0][]);
          Arrays.sort(sorted, Arrays::compareUnsigned);
          disk.add(BenchComponentLoader.write(dir.path().resolve("run-" + r + ".cmp"), r + 1,
              sorted, values, cache));
          readAhead.add(new ReadAheadBuffer());
        }
      }
      default -> throw new IllegalArgumentException("source must be memory or disk, not "
          + source);
    }
    int merged;
    try {
      merged = drain(null);
    } catch (RuntimeException e) {
      tearDown(); // JMH does not tear down a state whose setup failed
      throw e;
    }
    if (merged != ENTRIES) {
      tearDown();
      throw new IllegalStateException("the merge produced " + merged + " entries, not "
          + ENTRIES);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    for (DiskComponent d : disk) {
      d.release();
    }
    if (dir != null) {
      dir.close();
    }
  }

  private int drain(Blackhole bh) {
    List<EntryCursor> cursors = new ArrayList<>(runs);
    for (MemoryComponent m : memory) {
      cursors.add(m.cursor(null, null));
    }
    for (int r = 0; r < disk.size(); r++) {
      cursors.add(disk.get(r).sequentialScan(readAhead.get(r)));
    }
    int n = 0;
    byte[] previous = null;
    try (MergingCursor merge = new MergingCursor(cursors, false)) {
      while (merge.next()) {
        n++;
        if (bh != null) {
          bh.consume(merge.key());
          bh.consume(merge.valueArray());
          bh.consume(merge.valueOffset());
          bh.consume(merge.valueLength());
        } else if (previous != null
            && Arrays.compareUnsigned(previous, merge.key()) >= 0) {
          throw new IllegalStateException("the merge's output is not in ascending key order");
        } else {
          previous = merge.key();
        }
      }
    }
    return n;
  }

  /** Merges the N runs to the end, consuming every output key and value. */
  @Benchmark
  @OperationsPerInvocation(ENTRIES)
  public int merge(Blackhole bh) {
    return drain(bh);
  }
}
