package org.strata.lsm.component;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.io.FileIo;
import org.strata.lsm.io.IoBudgetCounters;
import org.strata.lsm.io.IoThrottle;
import org.strata.lsm.testing.VirtualClock;

/**
 * A component writer's use of the I/O budget, on a virtual clock: its bytes are admitted as they
 * are written (not when the component completes), by kind, and it is an open operation from its
 * creation until it finishes or is closed, so budget left unused meanwhile counts as busy.
 */
class ComponentWriterBudgetTest {
  private static final long RATE = 1_000_000;
  private static final long BURST = 100_000;
  @TempDir Path tmp;

  private static void addEntries(ComponentWriter w, int from, int to) throws Exception {
    byte[] value = new byte[1000];
    for (int i = from; i < to; i++) {
      w.add(String.format("k%08d", i).getBytes(), value);
    }
  }

  @Test
  void mergeBytesAreAdmittedAsWrittenAndAnOpenWriterMakesUnusedBudgetBusy() throws Exception {
    VirtualClock clock = new VirtualClock();
    IoThrottle throttle = new IoThrottle(RATE, BURST, clock);
    ComponentWriter w = new ComponentWriter(FileIo.standard().create(tmp.resolve("m.cmp")),
        throttle, 0, 4096, 0.01, 1, 1, 1, 0);
    addEntries(w, 0, 700); // about 700 KB: at least two 256 KB chunks reach the file
    IoBudgetCounters during = throttle.counters();
    assertThat(during.mergeBytesAdmitted()).isGreaterThanOrEqualTo(400_000);
    assertThat(during.flushBytesAdmitted()).isZero();

    clock.sleepNanos(1_000_000_000L); // pays off the last write's debt and fills the bucket
    long busyBefore = throttle.counters().discardedBusyBytes();
    clock.sleepNanos(1_000_000_000L); // the writer is open but asks for nothing
    IoBudgetCounters open = throttle.counters();
    assertThat(open.discardedBusyBytes() - busyBefore).isCloseTo(RATE, within(2L));
    assertThat(open.discardedIdleBytes()).isZero();
    long idleBefore = open.discardedIdleBytes();

    w.close(); // given up without finishing: no longer an open operation
    clock.sleepNanos(1_000_000_000L);
    IoBudgetCounters closed = throttle.counters();
    assertThat(closed.discardedIdleBytes() - idleBefore).isCloseTo(RATE, within(2L));
    assertThat(closed.discardedBusyBytes()).isEqualTo(open.discardedBusyBytes());
  }

  @Test
  void aFinishedFlushCountsItsWholeFileAsFlushBytesAndItsForce() throws Exception {
    VirtualClock clock = new VirtualClock();
    IoThrottle throttle = new IoThrottle(RATE, BURST, clock);
    ComponentWriter w = new ComponentWriter(FileIo.standard().create(tmp.resolve("f.cmp")),
        throttle, 0, 4096, 0.01, 1, 1, 1, 0).withPriority();
    addEntries(w, 0, 300);
    w.finish();
    IoBudgetCounters c = throttle.counters();
    assertThat(c.flushBytesAdmitted()).isEqualTo(w.fileSize());
    assertThat(c.mergeBytesAdmitted()).isZero();
    assertThat(c.flushForces()).isEqualTo(1); // forceBytes 0: only the final force
    clock.sleepNanos(1_000_000_000L); // pays off the last write's debt and fills the bucket
    long idleBefore = throttle.counters().discardedIdleBytes();
    clock.sleepNanos(500_000_000L); // finished: the unused budget is idle
    assertThat(throttle.counters().discardedIdleBytes() - idleBefore)
        .isCloseTo(RATE / 2, within(2L));
    w.close(); // closing after finish does not end the operation twice
    assertThat(throttle.counters().discardedBusyBytes()).isZero();
  }
}
