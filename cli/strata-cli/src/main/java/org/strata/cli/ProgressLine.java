package org.strata.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A progress line on standard error for a command that runs for more than a few seconds: at most
 * one every {@link #EVERY_NANOS}, with how far it is and the time left at the rate so far (e.g.
 * {@code gen-records: 2,400,000 of 10,000,000 records (24%), about 32 s left}). Silent for work
 * that ends before the first line is due. Not thread-safe: one caller.
 */
final class ProgressLine {
  /** How often a line is printed. */
  static final long EVERY_NANOS = 10_000_000_000L;

  private final PrintWriter err;
  private final String what;
  private final String unit;
  private final long total;
  private final LongSupplier nanoTime;
  private final long start;
  private long next;

  /**
   * @param what the command (the line's prefix)
   * @param unit what is counted, plural ("records", "simulated seconds")
   * @param total how many there are in all
   */
  ProgressLine(PrintWriter err, String what, String unit, long total, LongSupplier nanoTime) {
    this.err = err;
    this.what = what;
    this.unit = unit;
    this.total = total;
    this.nanoTime = nanoTime;
    this.start = nanoTime.getAsLong();
    this.next = start + EVERY_NANOS;
  }

  /** Reports {@code done} of the total; prints a line if one is due. */
  void update(long done) {
    long now = nanoTime.getAsLong();
    if (now < next) {
      return;
    }
    next = now + EVERY_NANOS;
    err.println(line(done, now - start));
    err.flush();
  }

  /** The line for {@code done} after {@code elapsedNanos}. */
  String line(long done, long elapsedNanos) {
    double fraction = total <= 0 ? 1 : Math.min(1, (double) done / total);
    String left = done <= 0 ? "" : String.format(Locale.ROOT, ", about %.0f s left",
        elapsedNanos / 1e9 * (1 - fraction) / fraction);
    return String.format(Locale.ROOT, "%s: %,d of %,d %s (%.0f%%)%s", what, done, total, unit,
        100 * fraction, left);
  }
}
