package org.strata.twophase;

import java.io.PrintStream;

/**
 * The console's progress line during a phase: rewritten in place on a terminal, one line every
 * ten seconds otherwise (logs, CI).
 */
final class Progress {
  private final PrintStream out;
  private final boolean terminal;
  private boolean dirty;

  Progress(PrintStream out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
  }

  /**
   * Shows second {@code second} of {@code total}; {@code stallCause} is the cause of this second's
   * stall as {@link TargetStats#stallsByCause()} names it, or null (none, or not reported).
   */
  synchronized void update(String phase, int second, int total, PhaseSample s,
      String stallCause) {
    if (out == null) {
      return;
    }
    String line = String.format(java.util.Locale.ROOT,
        "[%s] %d/%d s  %,d writes/s  queue %,d  disk components %d%s", phase, second, total,
        s.completed(), s.queueLength(), s.diskComponents(), !s.stalled() ? ""
            : stallCause == null ? "  stalled" : "  stalled: " + StallWords.shortName(stallCause));
    if (terminal) {
      out.print("\r" + line + "   ");
      dirty = true;
    } else if (second % 10 == 0) {
      out.println(line);
    }
    out.flush();
  }

  synchronized void message(String text) {
    if (out == null) {
      return;
    }
    finish();
    out.println(text);
    out.flush();
  }

  synchronized void finish() {
    if (terminal && dirty && out != null) {
      out.println();
      dirty = false;
    }
  }
}
