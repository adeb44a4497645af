package org.strata.lsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The switch lock: the exclusive side waits for every shared holder and keeps new ones out, and
 * re-enters for its owner (a partition's seal, then each tree's); the shared side of several
 * writers is held at once.
 */
class SwitchLockTest {
  @Test
  void sharedHoldersOverlapAndTheExclusiveSideWaitsForThemAll() throws Exception {
    SwitchLock lock = new SwitchLock();
    long first = lock.lockShared();
    CountDownLatch otherHolds = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread reader = new Thread(() -> {
      long s = lock.lockShared(); // held together with the main thread's
      otherHolds.countDown();
      try {
        release.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      lock.unlockShared(s);
    });
    reader.start();
    assertThat(otherHolds.await(60, TimeUnit.SECONDS)).as("a second shared holder").isTrue();
    AtomicBoolean sealed = new AtomicBoolean();
    CountDownLatch sealDone = new CountDownLatch(1);
    Thread seal = new Thread(() -> {
      lock.lockExclusive();
      sealed.set(true);
      lock.unlockExclusive();
      sealDone.countDown();
    });
    seal.start();
    assertThat(sealDone.await(200, TimeUnit.MILLISECONDS)).as("seal while shared held").isFalse();
    lock.unlockShared(first);
    assertThat(sealDone.await(200, TimeUnit.MILLISECONDS)).as("seal while one still held")
        .isFalse();
    release.countDown();
    assertThat(sealDone.await(60, TimeUnit.SECONDS)).as("seal once both released").isTrue();
    assertThat(sealed).isTrue();
    reader.join(60_000);
    seal.join(60_000);
  }

  @Test
  void theExclusiveSideReentersForItsOwnerAndKeepsWritersOut() throws Exception {
    SwitchLock lock = new SwitchLock();
    lock.lockExclusive();
    lock.lockExclusive(); // a tree's seal inside its partition's
    assertThat(lock.heldExclusively()).isTrue();
    CountDownLatch wrote = new CountDownLatch(1);
    Thread writer = new Thread(() -> {
      long s = lock.lockShared();
      lock.unlockShared(s);
      wrote.countDown();
    });
    writer.start();
    lock.unlockExclusive();
    assertThat(lock.heldExclusively()).as("one hold left").isTrue();
    assertThat(wrote.await(200, TimeUnit.MILLISECONDS)).as("write during the seal").isFalse();
    lock.unlockExclusive();
    assertThat(wrote.await(60, TimeUnit.SECONDS)).as("write after the seal").isTrue();
    assertThat(lock.heldExclusively()).isFalse();
    writer.join(60_000);
    assertThatThrownBy(lock::unlockExclusive).isInstanceOf(IllegalMonitorStateException.class);
  }
}
