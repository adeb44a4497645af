package org.strata.twophase;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What one process spent on a piece of work, from the operating system's accounting (Linux's
 * {@code /proc}): wall time, CPU time in user and in system mode, and the peak resident set.
 * For the JVM that runs a comparison, {@link Meter#self()} measures a stretch of its own life (the
 * peak is reset at the start through {@code /proc/self/clear_refs}, so it is the peak of that
 * stretch; the JVM's heap, once touched, stays resident); for a child process such as RocksDB's
 * {@code db_bench}, {@link Meter#of(long)} samples {@code /proc/PID} while it runs (its last
 * sample is at most one sampling interval before it exits).
 *
 * @param wallSeconds elapsed time
 * @param userSeconds CPU time in user mode, all threads
 * @param systemSeconds CPU time in the kernel on the process's behalf, all threads
 * @param peakRssBytes the largest resident set ({@code VmHWM})
 */
public record ProcessUse(double wallSeconds, double userSeconds, double systemSeconds,
    long peakRssBytes) {

  /** Clock ticks per second of {@code /proc/PID/stat}'s CPU times (Linux's USER_HZ). */
  static final double TICKS_PER_SECOND = 100;

  /**
   * As JSON: {@code wallSeconds}, {@code userSeconds}, {@code systemSeconds}, {@code peakRssBytes}.
   */
  public com.fasterxml.jackson.databind.node.ObjectNode json() {
    com.fasterxml.jackson.databind.node.ObjectNode o =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    o.put("wallSeconds", wallSeconds);
    o.put("userSeconds", userSeconds);
    o.put("systemSeconds", systemSeconds);
    o.put("peakRssBytes", peakRssBytes);
    return o;
  }

  /** CPU seconds (user and system) per million of {@code records}. */
  public double cpuSecondsPerMillion(long records) {
    return records <= 0 ? Double.NaN : (userSeconds + systemSeconds) / records * 1e6;
  }

  /** Measures one process from a starting point. */
  public static final class Meter {
    private final Path proc;
    private final long startNanos;
    private final long[] startTicks;
    private long[] lastTicks;
    private long lastPeak;

    private Meter(Path proc, boolean resetPeak) throws IOException {
      this.proc = proc;
      if (resetPeak) {
        try {
          Files.writeString(proc.resolve("clear_refs"), "5");
        } catch (IOException e) {
          // Not allowed here: the peak is the process's since it started, as the report says.
        }
      }
      startNanos = System.nanoTime();
      startTicks = ticks(proc);
      lastTicks = startTicks;
      lastPeak = peak(proc);
    }

    /**
     * A meter of this JVM from now, its peak resident set reset; null where {@code /proc} is not
     * there (not Linux).
     */
    public static Meter self() {
      try {
        return new Meter(Path.of("/proc/self"), true);
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }

    /** A meter of process {@code pid} from its start (call {@link #sample()} while it runs). */
    public static Meter of(long pid) throws IOException {
      return new Meter(Path.of("/proc", Long.toString(pid)), false);
    }

    /** Reads the process's counters now; false once it has gone. */
    public boolean sample() {
      try {
        lastTicks = ticks(proc);
        lastPeak = Math.max(lastPeak, peak(proc));
        return true;
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }

    /**
     * What the process spent since the meter started: CPU from the start for a child process
     * (its times count from its own start), since the meter started for this JVM.
     *
     * @param fromZero true to count CPU from the process's start (a child this meter saw start)
     */
    public ProcessUse stop(boolean fromZero) {
      sample();
      double wall = (System.nanoTime() - startNanos) / 1e9;
      long user = lastTicks[0] - (fromZero ? 0 : startTicks[0]);
      long system = lastTicks[1] - (fromZero ? 0 : startTicks[1]);
      return new ProcessUse(wall, user / TICKS_PER_SECOND, system / TICKS_PER_SECOND, lastPeak);
    }

    /** utime and stime of {@code /proc/PID/stat}, in ticks. */
    private static long[] ticks(Path proc) throws IOException {
      String stat = Files.readString(proc.resolve("stat"), StandardCharsets.US_ASCII);
      // The command name (field 2) may hold spaces; the fields after its closing parenthesis
      // start with field 3, so utime (14) and stime (15) are the 12th and 13th of them.
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
    }

    /** {@code VmHWM} of {@code /proc/PID/status}, in bytes. */
    private static long peak(Path proc) throws IOException {
      for (String line : Files.readAllLines(proc.resolve("status"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.substring(6).trim().split("\\s+")[0]) * 1024;
        }
      }
      return 0;
    }
  }
}
