package org.strata.crash;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One life of a writer process: starts {@link CrashChild}, collects the acknowledgements (from its
 * standard output, or from the feed replies the parent reads as the feed client), kills it with
 * SIGKILL ({@link ProcessHandle#destroyForcibly()}) as the {@link KillPlan} says, waits for it to
 * die and reads what it wrote to the end.
 */
final class ChildRun {
  /** How long a child may take to start writing before the run is a failure. */
  private static final long START_MILLIS = 120_000;

  /**
   * What happened.
   *
   * @param lastAck the highest sequence number acknowledged (start - 1 if none)
   * @param ackMillis the epoch milliseconds of each acknowledgement, from the start on
   * @param killMillis when the kill was sent
   * @param pointReached whether the planned crash point was reached (false for a delay plan)
   * @param failure why the child could not be run as planned, or null
   */
  record Result(long lastAck, List<Long> ackMillis, long killMillis, boolean pointReached,
      String failure) {}

  private final Object monitor = new Object();
  private final List<Long> ackMillis = new ArrayList<>();
  private long lastAck;
  private boolean pointReached;
  private int listeningPort = -1;
  private boolean ended;
  /** Lines of the child's standard output that are not of its protocol (at most 5). */
  private final List<String> unexpected = new ArrayList<>();

  private ChildRun(long start) {
    this.lastAck = start - 1;
  }

  /**
   * Runs a child for {@code target} in {@code dir} from operation {@code start} and kills it.
   *
   * @param javaCommand the java launcher, class path and JVM options, before the main class
   * @param stderr where the child's standard error goes (appended)
   */
  static Result run(List<String> javaCommand, CrashTarget target, Path dir, Path config,
      long start, long seed, KillPlan plan, Path stderr) throws IOException, InterruptedException {
    ChildRun r = new ChildRun(start);
    List<String> cmd = new ArrayList<>(javaCommand);
    cmd.addAll(List.of(CrashChild.class.getName(), target.writer().configName(), dir.toString(),
        config.toString(), Long.toString(start), Long.toString(seed),
        plan.point() == null ? "-" : plan.point().configName(),
        Integer.toString(plan.occurrence())));
    Process p = new ProcessBuilder(cmd)
        .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile())).start();
    Thread reader = new Thread(() -> r.readChild(p), "crash-child-output");
    reader.setDaemon(true);
    reader.start();
    FeedClient feed = null;
    String failure = null;
    long killAt;
    try {
      if (target.writer() == WriterKind.FEED) {
        int port = r.awaitListening(p);
        if (port < 0) {
          failure = "the feed server did not start (exit " + exitOf(p) + ")";
        } else {
          feed = FeedClient.start(port, CrashWorkload.of(seed, WriterKind.FEED), start, r::acked);
        }
      }
      if (failure == null && !r.awaitFirstAck(p)) {
        failure = "the writer acknowledged nothing within " + START_MILLIS / 1000 + " s (exit "
            + exitOf(p) + ")";
      }
      if (failure == null) {
        r.awaitKillMoment(p, plan);
        if (!p.isAlive()) {
          failure = "the writer exited by itself with code " + p.exitValue();
        }
      }
    } finally {
      killAt = System.currentTimeMillis();
      // SIGKILL through the process handle: Process.destroyForcibly() would also close our end of
      // the child's output, dropping the acknowledgements still in the pipe.
      p.toHandle().destroyForcibly();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        failure = "the writer did not die within 60 s of SIGKILL";
      }
      if (feed != null) {
        feed.awaitEnd();
        if (feed.failure() != null && failure == null) {
          failure = feed.failure();
        }
      }
      reader.join(30_000);
    }
    synchronized (r.monitor) {
      if (failure == null && !r.unexpected.isEmpty()) {
        failure = "the writer printed lines that are not of its protocol: " + r.unexpected;
      }
      return new Result(r.lastAck, List.copyOf(r.ackMillis), killAt, r.pointReached, failure);
    }
  }

  private static String exitOf(Process p) {
    return p.isAlive() ? "still running" : Integer.toString(p.exitValue());
  }

  private void readChild(Process p) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.US_ASCII))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (!parse(line)) {
          synchronized (monitor) {
            if (unexpected.size() < 5) {
              unexpected.add(line.length() > 100 ? line.substring(0, 100) + "..." : line);
            }
          }
        }
      }
    } catch (IOException e) {
      // the process died mid-line
    } finally {
      synchronized (monitor) {
        ended = true;
        monitor.notifyAll();
      }
    }
  }

  /** Takes one line of the child's protocol; false if it is none. */
  private boolean parse(String line) {
    String[] f = line.split(" ");
    try {
      if (f[0].equals("ack") && f.length == 3) {
        acked(Long.parseLong(f[1]), Long.parseLong(f[2]));
      } else if (f[0].equals("crashpoint") && f.length == 2) {
        synchronized (monitor) {
          pointReached = true;
          monitor.notifyAll();
        }
      } else if (f[0].equals("listening") && f.length == 2) {
        synchronized (monitor) {
          listeningPort = Integer.parseInt(f[1]);
          monitor.notifyAll();
        }
      } else {
        return false;
      }
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * Records the acknowledgement of {@code seq} at {@code millis}. The child acknowledges in order,
   * so a later one covers an earlier one whose line was garbled (then given the same time).
   */
  void acked(long seq, long millis) {
    synchronized (monitor) {
      if (seq <= lastAck) {
        throw new IllegalStateException("acknowledgement of " + seq + " after " + lastAck);
      }
      while (lastAck < seq) {
        lastAck++;
        ackMillis.add(millis);
      }
      monitor.notifyAll();
    }
  }

  private int awaitListening(Process p) throws InterruptedException {
    long deadline = System.currentTimeMillis() + START_MILLIS;
    synchronized (monitor) {
      while (listeningPort < 0 && !ended && System.currentTimeMillis() < deadline) {
        monitor.wait(Math.max(1, deadline - System.currentTimeMillis()));
      }
      return listeningPort;
    }
  }

  private boolean awaitFirstAck(Process p) throws InterruptedException {
    long deadline = System.currentTimeMillis() + START_MILLIS;
    synchronized (monitor) {
      while (ackMillis.isEmpty() && !ended && !pointReached
          && System.currentTimeMillis() < deadline) {
        monitor.wait(Math.max(1, deadline - System.currentTimeMillis()));
      }
      return !ackMillis.isEmpty() || pointReached;
    }
  }

  private void awaitKillMoment(Process p, KillPlan plan) throws InterruptedException {
    long deadline = System.currentTimeMillis() + plan.delayMillis();
    synchronized (monitor) {
      while (!ended && !(plan.point() != null && pointReached)
          && System.currentTimeMillis() < deadline) {
        monitor.wait(Math.max(1, deadline - System.currentTimeMillis()));
      }
    }
  }
}
