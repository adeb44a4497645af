package org.strata.sim.des;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.OperationRunner;

/**
 * The simulated disk: one write bandwidth B shared by one flush at a time and the merges a
 * scheduler has started. As with the engine's {@link org.strata.lsm.io.IoThrottle}, a flush has
 * strict priority (merges get nothing while it writes), and the merges that are started and not
 * paused split B evenly; a lone merge gets all of it (work-conserving). It is also the {@link
 * OperationRunner} handed to the real scheduler classes, so their {@code start}, {@code pause} and
 * {@code resume} decisions are what divides the virtual bandwidth.
 *
 * <p>Time only moves forward through {@link #advanceTo} (which must not cross {@link
 * #nextCompletionTime}) and {@link #completeNext}.
 */
public final class VirtualIo implements OperationRunner {
  /** Observes how many bytes flushes and merges wrote over an interval of constant rates. */
  public interface Meter {
    /**
     * @param from start of the interval, seconds
     * @param to end of the interval, seconds
     * @param flushRate bytes/s written by the flush
     * @param mergeRate bytes/s written by all merges together
     */
    void wrote(double from, double to, double flushRate, double mergeRate);
  }

  private final double bandwidth;
  private final List<DesOperation> started = new ArrayList<>();
  private DesOperation flush;
  private double now;
  private Meter meter = (a, b, f, m) -> { };

  /** @param bandwidth bytes per second for flushes and merges together, positive */
  public VirtualIo(double bandwidth) {
    if (!(bandwidth > 0) || Double.isInfinite(bandwidth)) {
      throw new IllegalArgumentException("bandwidth must be a positive number of bytes/s");
    }
    this.bandwidth = bandwidth;
  }

  /** Sets the observer of written bytes. */
  public void meter(Meter m) {
    this.meter = m;
  }

  /** The current virtual time in seconds. */
  public double now() {
    return now;
  }

  @Override
  public boolean virtualTime() {
    return true;
  }

  /** Called by a scheduler: the merge progresses from now on whenever it is not paused. */
  @Override
  public void start(IoOperation op) {
    if (!(op instanceof DesOperation d)) {
      throw new IllegalArgumentException("the simulator runs only its own operations");
    }
    d.markStarted(now);
    started.add(d);
  }

  @Override
  public void close() {
    // Nothing runs on threads here.
  }

  /** Starts a flush; only one flush runs at a time (the engine's single flush thread). */
  public void startFlush(DesOperation op) {
    if (flush != null) {
      throw new IllegalStateException("a flush is already running");
    }
    op.markStarted(now);
    flush = op;
  }

  /** Whether a flush is running. */
  public boolean flushing() {
    return flush != null;
  }

  /** Merges started and not yet complete (paused or not). */
  public List<DesOperation> startedMerges() {
    return List.copyOf(started);
  }

  /** Whether any flush or merge can make progress. */
  public boolean busy() {
    return flush != null || progressingCount() > 0;
  }

  private int progressingCount() {
    int n = 0;
    for (int i = 0; i < started.size(); i++) {
      if (started.get(i).progressing()) {
        n++;
      }
    }
    return n;
  }

  /** When the next operation completes at the current allocation; +inf if none progresses. */
  public double nextCompletionTime() {
    if (flush != null) {
      return now + flush.remainingBytes() / bandwidth;
    }
    int n = 0;
    double least = Double.POSITIVE_INFINITY;
    for (int i = 0; i < started.size(); i++) {
      DesOperation op = started.get(i);
      if (op.progressing()) {
        n++;
        least = Math.min(least, op.remainingBytes());
      }
    }
    return n == 0 ? Double.POSITIVE_INFINITY : now + least * n / bandwidth;
  }

  /** Moves time to {@code t} (not past the next completion), letting operations progress. */
  public void advanceTo(double t) {
    if (t <= now) {
      return;
    }
    double dt = t - now;
    if (flush != null) {
      flush.progress(bandwidth * dt);
      meter.wrote(now, t, bandwidth, 0);
    } else {
      int n = progressingCount();
      if (n > 0) {
        double share = bandwidth / n * dt;
        for (int i = 0; i < started.size(); i++) {
          DesOperation op = started.get(i);
          if (op.progressing()) {
            op.progress(share);
          }
        }
        meter.wrote(now, t, 0, bandwidth);
      }
    }
    now = t;
  }

  /**
   * Advances to the next completion and returns the completed operation (removed from this
   * runner), or null if nothing progresses.
   */
  public DesOperation completeNext() {
    double t = nextCompletionTime();
    if (Double.isInfinite(t)) {
      return null;
    }
    DesOperation done = flush;
    if (done == null) {
      for (DesOperation op : started) {
        if (op.progressing() && (done == null || op.remainingBytes() < done.remainingBytes())) {
          done = op;
        }
      }
    }
    advanceTo(t);
    if (done == flush) {
      flush = null;
    } else {
      started.remove(done);
    }
    done.markCompleted(now);
    return done;
  }
}
