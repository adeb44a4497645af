package org.strata.lsm.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.strata.lsm.testing.VirtualClock;

class IoThrottleTest {
  @Test
  void admitsBytesAtTheConfiguredRateWithBoundedBurst() throws Exception {
    VirtualClock clock = new VirtualClock();
    IoThrottle t = new IoThrottle(1_000_000, clock);
    long start = clock.nanoTime();
    for (int i = 0; i < 1000; i++) {
      t.acquire(10_000); // 10 MB in all
    }
    double seconds = (clock.nanoTime() - start) / 1e9;
    // The bucket starts full (0.1 s of budget), so 10 MB take 9.9 s at 1 MB/s.
    assertThat(seconds).isBetween(9.85, 9.95);
    assertThat(t.totalBytes()).isEqualTo(10_000_000);
  }

  @Test
  void largeRequestsGoIntoDebtSoTheLongRunRateHolds() throws Exception {
    VirtualClock clock = new VirtualClock();
    IoThrottle t = new IoThrottle(1_000_000, clock);
    long start = clock.nanoTime();
    for (int i = 0; i < 10; i++) {
      t.acquire(2_000_000);
    }
    t.acquire(1);
    assertThat((clock.nanoTime() - start) / 1e9).isBetween(19.8, 20.0);
  }

  @Test
  void zeroMeansUnlimited() throws Exception {
    VirtualClock clock = new VirtualClock();
    IoThrottle t = new IoThrottle(0, clock);
    long start = clock.nanoTime();
    t.acquire(1L << 40);
    assertThat(clock.nanoTime()).isEqualTo(start);
  }
}
