package org.strata.lsm.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.strata.lsm.testing.VirtualClock;

/** The throttle's account of where its budget went, on a virtual clock. */
class IoBudgetCountersTest {
  private static final long RATE = 1_000_000;
  private static final long BURST = 100_000;

  @Test
  void budgetOverflowingAFullBucketIsDiscardedAsIdleWhenNoOperationIsOpen() throws Exception {
    VirtualClock clock = new VirtualClock();
    IoThrottle t = new IoThrottle(RATE, BURST, clock);
    clock.sleepNanos(2_000_000_000L); // the bucket starts full: all 2 s of budget overflow
    IoBudgetCounters c = t.counters();
    assertThat(c.discardedIdleBytes()).isCloseTo(2_000_000, within(2L));
    assertThat(c.discardedBusyBytes()).isZero();
  }

  @Test
  void budgetOverflowingWhileAnOperationIsOpenButNotAskingIsDiscardedAsBusy() throws Exception {
    VirtualClock clock = new VirtualClock();
    IoThrottle t = new IoThrottle(RATE, BURST, clock);
    t.acquire(BURST); // empty the bucket
    t.operationStarted();
    clock.sleepNanos(500_000_000L); // 0.1 s refills the bucket, 0.4 s overflow
    t.operationEnded();
    clock.sleepNanos(300_000_000L); // 0.3 s overflow with nothing open
    IoBudgetCounters c = t.counters();
    assertThat(c.discardedBusyBytes()).isCloseTo(400_000, within(2L));
    assertThat(c.discardedIdleBytes()).isCloseTo(300_000, within(2L));
  }

  @Test
  void nothingIsDiscardedWhileCallersWaitForTokensAndTheirSleepIsCounted() throws Exception {
    VirtualClock clock = new VirtualClock();
    IoThrottle t = new IoThrottle(RATE, BURST, clock);
    t.operationStarted();
    for (int i = 0; i < 100; i++) {
      t.acquire(10_000); // 1 MB: 0.9 s of waiting after the first full bucket
    }
    IoBudgetCounters c = t.counters();
    assertThat(c.discardedBytes()).isZero();
    assertThat(c.admittedBytes()).isEqualTo(1_000_000);
    assertThat(c.waitNanos()).isCloseTo(900_000_000L, within(200_000L));
  }

  @Test
  void forcesAreCountedByKindWithTheirDuration() throws Exception {
    VirtualClock clock = new VirtualClock();
    IoThrottle t = new IoThrottle(RATE, BURST, clock);
    WritableFile slow = new WritableFile() {
      @Override
      public void write(ByteBuffer buf) {
        buf.position(buf.limit());
      }

      @Override
      public void force() {
        clock.sleepNanos(7_000_000L);
      }

      @Override
      public long size() {
        return 0;
      }

      @Override
      public void close() throws IOException {}
    };
    t.force(slow, true);
    t.force(slow, false);
    t.force(slow, false);
    IoBudgetCounters c = t.counters();
    assertThat(c.flushForces()).isEqualTo(1);
    assertThat(c.flushForceNanos()).isEqualTo(7_000_000L);
    assertThat(c.mergeForces()).isEqualTo(2);
    assertThat(c.mergeForceNanos()).isEqualTo(14_000_000L);
  }
}
