package org.strata.lsm.wal;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A force listener for {@code FaultInjectingFileIo#onForce} that, once {@link #hold()} is called,
 * stops the next force inside the file until {@link #release()}: a slow disk, without any timing.
 */
final class ForceHold implements Consumer<Path> {
  private final CountDownLatch started = new CountDownLatch(1);
  private final CountDownLatch released = new CountDownLatch(1);
  private final AtomicBoolean holding = new AtomicBoolean();

  /** From now on a force stops inside the file. */
  void hold() {
    holding.set(true);
  }

  /** Whether a force reached the file and is being held (waits up to 60 s for one). */
  boolean awaitHeld() throws InterruptedException {
    return started.await(60, TimeUnit.SECONDS);
  }

  /** Lets the held force (and every later one) go on. */
  void release() {
    holding.set(false);
    released.countDown();
  }

  @Override
  public void accept(Path p) {
    if (holding.get()) {
      started.countDown();
      try {
        released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
