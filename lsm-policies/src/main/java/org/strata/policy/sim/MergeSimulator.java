package org.strata.policy.sim;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.RunInfo;

/**
 * Mao et al.'s model of a merge policy (spec A7.3), driving the real {@link MergePolicy} objects:
 * each flush adds a run whose component id is the flush ordinal, merges complete instantly and
 * their output's size is the sum of the inputs. As in the engine, the policy is called after the
 * flush and again after each merge it asks for, until it asks for none.
 *
 * <p>Two write amplifications are kept: the engine's (flushed bytes plus merged bytes, over
 * flushed bytes) and the model's (Problem 1: bytes of newly created runs over flushed bytes, where a
 * flush merged at once counts only inside the merged run).
 */
public final class MergeSimulator implements MergeContext {
  private static final byte[] NO_KEY = new byte[0];
  private static final int MAX_CALLS_PER_FLUSH = 1000;

  private record SimRun(long runId, long minId, long maxId, long size, int level) {}

  private final MergePolicy policy;
  private final ArrayList<SimRun> runs = new ArrayList<>(); // newest first
  private List<RunInfo> view;
  private long nextRunId = 1;
  private long flushes;
  private long flushedBytes;
  private long engineBytes;
  private long modelBytes;
  private double componentCountSum;
  private long currentFlushRunId = -1;
  private long currentFlushSize;
  private boolean currentFlushAbsorbed;
  private boolean mergedInCall;
  private long rejectedMerges;

  public MergeSimulator(MergePolicy policy) {
    this.policy = policy;
  }

  /** Adds a flush of {@code size} bytes and lets the policy merge. */
  public void flush(long size) {
    if (size <= 0) {
      throw new IllegalArgumentException("flush sizes must be positive, got " + size);
    }
    flushes++;
    SimRun r = new SimRun(nextRunId++, flushes, flushes, size, 0);
    runs.add(0, r);
    view = null;
    flushedBytes += size;
    engineBytes += size;
    modelBytes += size;
    currentFlushRunId = r.runId();
    currentFlushSize = size;
    currentFlushAbsorbed = false;
    int calls = 0;
    do {
      mergedInCall = false;
      policy.diskComponentAdded(this, false);
      if (++calls > MAX_CALLS_PER_FLUSH) {
        throw new IllegalStateException("the policy kept merging after flush " + flushes
            + " (more than " + MAX_CALLS_PER_FLUSH + " merges)");
      }
    } while (mergedInCall);
    componentCountSum += runs.size();
  }

  @Override
  public List<RunInfo> runs() {
    if (view == null) {
      List<RunInfo> v = new ArrayList<>(runs.size());
      for (SimRun r : runs) {
        v.add(new RunInfo(r.runId(), r.level(), List.of(new ComponentInfo("sim-" + r.runId(),
            r.minId(), r.maxId(), r.size(), r.size(), 1, NO_KEY, NO_KEY)), false));
      }
      view = List.copyOf(v);
    }
    return view;
  }

  @Override
  public boolean scheduleMerge(List<RunInfo> window, int outputLevel, long targetFileSize) {
    if (window.isEmpty()) {
      throw new IllegalArgumentException("a merge needs at least one run");
    }
    int start = -1;
    for (int i = 0; i < runs.size(); i++) {
      if (runs.get(i).runId() == window.get(0).runId()) {
        start = i;
        break;
      }
    }
    if (start < 0 || start + window.size() > runs.size()) {
      rejectedMerges++;
      return false;
    }
    long size = 0;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    boolean absorbsFlush = false;
    for (int i = 0; i < window.size(); i++) {
      SimRun r = runs.get(start + i);
      if (r.runId() != window.get(i).runId()) {
        rejectedMerges++;
        return false;
      }
      size += r.size();
      min = Math.min(min, r.minId());
      max = Math.max(max, r.maxId());
      absorbsFlush |= r.runId() == currentFlushRunId;
    }
    runs.subList(start, start + window.size()).clear();
    SimRun out = new SimRun(nextRunId++, min, max, size, outputLevel);
    runs.add(start, out);
    view = null;
    engineBytes += size;
    modelBytes += size;
    if (absorbsFlush && !currentFlushAbsorbed) {
      modelBytes -= currentFlushSize; // the flush counts only inside the merged run
      currentFlushAbsorbed = true;
    }
    if (absorbsFlush) {
      currentFlushRunId = out.runId();
      currentFlushSize = size;
      currentFlushAbsorbed = true;
    }
    mergedInCall = true;
    return true;
  }

  /**
   * Merge requests refused because their runs were not contiguous, no longer existed (already
   * merged) or were unknown. A correct policy makes none.
   */
  public long rejectedMerges() {
    return rejectedMerges;
  }

  /** The statistics after the flushes so far. */
  public Checkpoint checkpoint() {
    return new Checkpoint(flushes,
        flushedBytes == 0 ? 0 : (double) engineBytes / flushedBytes,
        flushedBytes == 0 ? 0 : (double) modelBytes / flushedBytes,
        flushes == 0 ? 0 : componentCountSum / flushes,
        runs.size());
  }

  /**
   * Statistics at one point of a simulation.
   *
   * @param flushes flushes so far
   * @param writeAmplification (flushed + merged bytes) / flushed bytes: the engine's definition
   * @param modelWriteAmplification bytes of newly created runs / flushed bytes (Mao et al.,
   *     Problem 1)
   * @param averageComponentCount mean over flushes 1..n of the run count after each flush
   * @param components run count after the last flush
   */
  public record Checkpoint(long flushes, double writeAmplification,
      double modelWriteAmplification, double averageComponentCount, int components) {}
}
