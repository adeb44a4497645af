package org.strata.lsm.testing;

import java.util.concurrent.atomic.AtomicLong;
import org.strata.lsm.io.Clock;

/** A clock that only moves when someone sleeps on it: sleeping advances time instantly. */
public final class VirtualClock implements Clock {
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  @Override
  public long nanoTime() {
    return nanos.get();
  }

  @Override
  public long currentTimeMillis() {
    return nanos.get() / 1_000_000;
  }

  @Override
  public void sleepNanos(long n) {
    if (n > 0) {
      nanos.addAndGet(n);
    }
  }
}
