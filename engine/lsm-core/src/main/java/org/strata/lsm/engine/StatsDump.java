package org.strata.lsm.engine;

import java.util.function.Consumer;
import java.util.function.Supplier;
import org.strata.lsm.io.Clock;

/**
 * When a tree writes its compaction statistics into its {@code LOG} ({@code
 * stats.dump-interval}): at the end of the first flush after the interval has passed since the
 * open or the last dump. Driven by flushes rather than a timer of its own, so that it needs no
 * thread, follows the store's clock, and an idle store (which has nothing new to report) writes
 * nothing.
 */
final class StatsDump {
  private final long intervalNanos;
  private final Clock clock;
  private final Consumer<String> log;
  private final Supplier<String> table;
  private long last; // guarded by this

  /**
   * @param seconds the interval; 0 for no dump
   * @param log where a dump goes (the tree's logger)
   * @param table the compaction-stats table now
   */
  StatsDump(int seconds, Clock clock, Consumer<String> log, Supplier<String> table) {
    this.intervalNanos = seconds * 1_000_000_000L;
    this.clock = clock;
    this.log = log;
    this.table = table;
    this.last = clock.nanoTime();
  }

  /** Writes the table to the log if a dump is due. */
  void dumpIfDue() {
    if (due()) {
      log.accept(table.get());
    }
  }

  /** True, and the interval starts again, if a dump is due now. */
  synchronized boolean due() {
    if (intervalNanos <= 0) {
      return false;
    }
    long now = clock.nanoTime();
    if (now - last < intervalNanos) {
      return false;
    }
    last = now;
    return true;
  }
}
