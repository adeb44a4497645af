package org.strata.lsm.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.lsm.testing.TestStores.b;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.engine.LsmStore;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.DeviceConfig;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.testing.TestStores;
import org.strata.lsm.testing.VirtualClock;

/**
 * The device model turns bytes into time, deterministically: on a virtual clock the time a run
 * takes is exactly what its bytes cost, and a store on a device charges its log writes, its
 * flushes' writes and its merges' reads and writes, each to its class.
 */
class DeviceTest {
  @TempDir Path tmp;

  @Test
  void bytesCostTheirBandwidthsTimeAndForcesTheirLatency() throws Exception {
    VirtualClock clock = new VirtualClock();
    Device d = new DeviceConfig("d", ByteSize.ofBytes(1 << 20), ByteSize.ofBytes(2 << 20), 5.0)
        .open(clock);
    long t0 = clock.nanoTime();
    d.write(10L << 20); // 10 MB at 1 MB/s: 10 s, less the 10 ms an idle device saved up
    d.read(4L << 20); // 4 MB at 2 MB/s: 2 s
    for (int i = 0; i < 100; i++) {
      d.force(); // 5 ms each
    }
    double seconds = (clock.nanoTime() - t0) / 1e9;
    assertThat(seconds).isBetween(12.5 - 0.011, 12.5 + 0.001);
    DeviceCounters c = d.counters();
    assertThat(c.written(IoClass.FOREGROUND)).isEqualTo(10L << 20);
    assertThat(c.read(IoClass.FOREGROUND)).isEqualTo(4L << 20);
    assertThat(c.forces(IoClass.FOREGROUND)).isEqualTo(100);
    assertThat(c.totalBusyNanos()).isEqualTo(12_500_000_000L);
  }

  @Test
  void aStoreOnADeviceChargesItsLogFlushesAndMergesReadsAndWrites() throws Exception {
    VirtualClock clock = new VirtualClock();
    StoreConfig c = TestStores.smallConfig(2).withDevice(DeviceConfig.of("slow", 4L << 20));
    try (LsmStore s = LsmStore.open(tmp.resolve("s"), c,
        new StoreEnvironment(clock, FileIo.standard()))) {
      for (int i = 0; i < 4000; i++) {
        s.put(b(String.format("k%06d", i)), new byte[100]);
      }
      s.flush();
      s.compact();
      DeviceCounters d = s.deviceCounters();
      assertThat(d.present()).isTrue();
      assertThat(d.name()).isEqualTo("slow");
      assertThat(d.written(IoClass.FOREGROUND)).as("log appends").isGreaterThan(400_000);
      assertThat(d.written(IoClass.FLUSH)).as("flushes' components").isGreaterThan(100_000);
      assertThat(d.read(IoClass.MERGE)).as("merges read their inputs").isGreaterThan(100_000);
      assertThat(d.written(IoClass.MERGE)).as("merges write their outputs")
          .isGreaterThan(100_000);
      long bytes = 0;
      for (IoClass k : IoClass.values()) {
        bytes += d.written(k) + d.read(k);
      }
      assertThat(d.totalBusyNanos()).as("every byte cost 1 / (4 MB/s)")
          .isBetween((long) (bytes * 1e9 / (4 << 20)) - 1000, (long) (bytes * 1e9 / (4 << 20))
              + 1000 + d.forces(IoClass.FOREGROUND) + d.forces(IoClass.FLUSH)
              + d.forces(IoClass.MERGE));
    }
  }

  @Test
  void aStoreWithoutADeviceChargesNothing() throws Exception {
    try (LsmStore s = LsmStore.open(tmp.resolve("n"), TestStores.smallConfig(2))) {
      s.put(b("k"), b("v"));
      assertThat(s.deviceCounters().present()).isFalse();
    }
  }
}
