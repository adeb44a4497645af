package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * The operating system's accounting of this JVM over a stretch of work: the CPU the stretch
 * burned shows in user time, the memory it touched in the peak resident set. Linux only (skipped
 * elsewhere).
 */
class ProcessUseTest {
  @Test
  void aStretchOfWorkShowsItsCpuAndItsMemory() {
    ProcessUse.Meter meter = ProcessUse.Meter.self();
    assumeTrue(meter != null, "no /proc here: process accounting is Linux's");
    long x = 0;
    long start = System.nanoTime();
    while (System.nanoTime() - start < 300_000_000L) {
      x += Long.numberOfTrailingZeros(x + System.nanoTime());
    }
    byte[][] touched = new byte[64][];
    for (int i = 0; i < touched.length; i++) {
      touched[i] = new byte[1 << 20];
      java.util.Arrays.fill(touched[i], (byte) x);
    }
    ProcessUse use = meter.stop(false);
    assertThat(use.userSeconds()).as("a third of a second of CPU").isPositive();
    assertThat(use.wallSeconds()).isGreaterThanOrEqualTo(0.3);
    assertThat(use.peakRssBytes()).as("64 MiB touched").isGreaterThan(64L << 20);
    assertThat(use.cpuSecondsPerMillion(1_000_000)).isEqualTo(use.userSeconds()
        + use.systemSeconds());
    assertThat(touched[63][0]).isEqualTo((byte) x);
  }
}
