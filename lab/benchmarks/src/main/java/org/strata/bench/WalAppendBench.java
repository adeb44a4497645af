package org.strata.bench;

import java.util.List;
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
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.wal.LogOp;
import org.strata.lsm.wal.WriteAheadLog;

/**
 * Appends one put (a 20-byte key and a value) to the real {@link WriteAheadLog} in a file of the
 * system temp directory, then does what the store's write path does next under the durability mode:
 * {@code sync} waits for the force of its record, so it measures the device's fsync (on this file
 * system) more than the log; {@code group} returns once the record is buffered while a background
 * task writes and forces the log every 10 ms; {@code none} writes the buffer out when it reaches
 * 1 MB and never forces. The log rolls to a new segment and deletes the old one every 64 MB, as
 * the store does when it seals a memory component of the default size, so disk use stays bounded.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class WalAppendBench {
  static final long ROLL_BYTES = 64L << 20;
  static final int KEYS = 1 << 16;

  /** The durability mode: {@code sync}, {@code group} or {@code none}. */
  @Param({"sync", "group", "none"})
  public String durability;

  /** Bytes of each value. */
  @Param({"100", "1000"})
  public int valueSize;

  private TempDir dir;
  private WriteAheadLog wal;
  private Durability mode;
  private byte[][] keys;
  private byte[] value;
  private int next;
  private long bytesSinceRoll;

  @Setup(Level.Trial)
  public void setUp() {
    mode = Durability.parse("durability", durability);
    keys = BenchData.keys(0, KEYS);
    value = BenchData.values(1, valueSize, 1)[0];
    dir = TempDir.create("wal");
    try {
      wal = WriteAheadLog.open(dir.path(), mode, 10, FileIo.standard(),
          LogRecoveryMode.TOLERATE_TORN_TAIL, 0, (lsn, op) -> {
        throw new IllegalStateException("a fresh log has nothing to replay");
      });
    } catch (RuntimeException e) {
      dir.close(); // JMH does not tear down a state whose setup failed
      throw e;
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    try {
      wal.close();
    } finally {
      dir.close();
    }
  }

  /** One put appended to the log, then forced ({@code sync}) or left to the log's schedule. */
  @Benchmark
  public long append() {
    byte[] key = keys[next];
    next = (next + 1) & (KEYS - 1);
    long lsn = wal.append(List.of(new LogOp(key, value)));
    if (mode == Durability.SYNC) {
      wal.sync(lsn);
    } else {
      wal.writeOutIfLarge();
    }
    bytesSinceRoll += key.length + value.length;
    if (bytesSinceRoll >= ROLL_BYTES) {
      wal.roll();
      wal.truncateUpTo(lsn);
      bytesSinceRoll = 0;
    }
    return lsn;
  }
}
