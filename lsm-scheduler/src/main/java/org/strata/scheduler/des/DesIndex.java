package org.strata.scheduler.des;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.RunInfo;

/**
 * One simulated LSM-tree as its merge policy sees it. Runs carry no keys, only the fraction of the
 * key space they cover: a run flushed from m uniform updates over N keys covers 1 − (1 − 1/N)^m of
 * it, independent runs merge to 1 − Π(1 − f), and runs of the initial load (distinct keys) are
 * disjoint, so their fractions add. A merge therefore writes fewer bytes than it reads when its
 * inputs overlap, as a real merge that keeps only the newest version does.
 *
 * <p>While loading, merges complete the instant they are asked for (a bulk load into the
 * policy's own shape); afterwards each becomes a {@link DesOperation} handed to the scheduler.
 */
final class DesIndex implements MergeContext {
  static final String NAME = "des";
  private static final byte[] NO_KEY = new byte[0];
  private static final int MAX_CALLS_PER_LOAD_FLUSH = 1000;

  /** A run of the simulated tree. */
  private static final class SimRun {
    final long runId;
    final int level;
    final double fraction;
    final boolean loadOnly;
    final long minId;
    final long maxId;
    boolean merging;

    SimRun(long runId, int level, double fraction, boolean loadOnly, long minId, long maxId) {
      this.runId = runId;
      this.level = level;
      this.fraction = fraction;
      this.loadOnly = loadOnly;
      this.minId = minId;
      this.maxId = maxId;
    }
  }

  /** A scheduled merge: its inputs and the run it will produce. */
  private record Pending(List<SimRun> inputs, SimRun output) {}

  private final DesSetup setup;
  private final MergePolicy policy;
  private final VirtualIo io;
  private MergeScheduler scheduler;
  private final ArrayList<SimRun> runs = new ArrayList<>(); // newest first
  private final Map<IoOperation, Pending> pending = new IdentityHashMap<>();
  private List<RunInfo> view;
  private long nextRunId = 1;
  private long flushes;
  private boolean loading;
  private boolean mergedInCall;
  private long rejectedMerges;
  private long mergesScheduled;

  DesIndex(DesSetup setup, MergePolicy policy, VirtualIo io) {
    this.setup = setup;
    this.policy = policy;
    this.io = io;
  }

  void scheduler(MergeScheduler s) {
    this.scheduler = s;
  }

  MergePolicy policy() {
    return policy;
  }

  /** Bytes of a run covering {@code fraction} of the key space. */
  double bytes(double fraction) {
    return fraction * setup.entries() * (double) setup.entrySize();
  }

  /** Fraction of the key space that {@code writes} uniform updates touch. */
  double updateFraction(long writes) {
    return -Math.expm1(writes * Math.log1p(-1.0 / setup.entries()));
  }

  /**
   * Loads {@code entries} distinct keys as a sequence of memory-component flushes, letting the
   * policy merge after each flush with merges that complete at once.
   */
  void load() {
    long perFlush = setup.memoryComponentEntries();
    loading = true;
    try {
      for (long done = 0; done < setup.entries(); done += perFlush) {
        long m = Math.min(perFlush, setup.entries() - done);
        addFlushed((double) m / setup.entries(), true);
        int calls = 0;
        do {
          mergedInCall = false;
          policy.diskComponentAdded(this, false);
          if (++calls > MAX_CALLS_PER_LOAD_FLUSH) {
            throw new IllegalStateException("the policy kept merging during the initial load");
          }
        } while (mergedInCall);
      }
    } finally {
      loading = false;
    }
  }

  /** Adds a flushed run at the newest end. */
  void addFlushed(double fraction, boolean loadOnly) {
    flushes++;
    runs.add(0, new SimRun(nextRunId++, 0, fraction, loadOnly, flushes, flushes));
    view = null;
  }

  /** Replaces a finished merge's inputs with its output. */
  void mergeCompleted(IoOperation op) {
    Pending p = pending.remove(op);
    if (p == null) {
      throw new IllegalStateException("an unknown merge completed");
    }
    int start = runs.indexOf(p.inputs().get(0));
    if (start < 0 || !runs.subList(start, start + p.inputs().size()).equals(p.inputs())) {
      throw new IllegalStateException("the inputs of a merge are no longer contiguous");
    }
    runs.subList(start, start + p.inputs().size()).clear();
    runs.add(start, p.output());
    view = null;
  }

  /** Disk components (one per run here). */
  int componentCount() {
    return runs.size();
  }

  /** Runs at level 0: flushed and not merged yet. */
  int flushedRunCount() {
    int n = 0;
    for (SimRun r : runs) {
      if (r.level == 0) {
        n++;
      }
    }
    return n;
  }

  /** Merge requests refused (runs gone, merging or not contiguous); a correct policy makes none. */
  long rejectedMerges() {
    return rejectedMerges;
  }

  long mergesScheduled() {
    return mergesScheduled;
  }

  @Override
  public List<RunInfo> runs() {
    if (view == null) {
      List<RunInfo> v = new ArrayList<>(runs.size());
      for (SimRun r : runs) {
        long size = Math.max(1, Math.round(bytes(r.fraction)));
        long count = Math.max(1, Math.round(r.fraction * setup.entries()));
        v.add(new RunInfo(r.runId, r.level, List.of(new ComponentInfo("des-" + r.runId, r.minId,
            r.maxId, size, count, Math.max(1, size / setup.pageSize()), NO_KEY, NO_KEY)),
            r.merging));
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
    if (targetFileSize <= 0) {
      throw new IllegalArgumentException("targetFileSize must be positive");
    }
    int start = -1;
    for (int i = 0; i < runs.size(); i++) {
      if (runs.get(i).runId == window.get(0).runId()) {
        start = i;
        break;
      }
    }
    if (start < 0 || start + window.size() > runs.size()) {
      rejectedMerges++;
      return false;
    }
    List<SimRun> inputs = new ArrayList<>(runs.subList(start, start + window.size()));
    double loaded = 0;
    double otherMissing = 1;
    boolean loadOnly = true;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    double inputBytes = 0;
    for (int i = 0; i < inputs.size(); i++) {
      SimRun r = inputs.get(i);
      if (r.runId != window.get(i).runId() || r.merging) {
        rejectedMerges++;
        return false;
      }
      if (r.loadOnly) {
        loaded += r.fraction;
      } else {
        otherMissing *= 1 - r.fraction;
        loadOnly = false;
      }
      min = Math.min(min, r.minId);
      max = Math.max(max, r.maxId);
      inputBytes += bytes(r.fraction);
    }
    double fraction = 1 - (1 - Math.min(1, loaded)) * otherMissing;
    SimRun out = new SimRun(nextRunId++, outputLevel, fraction, loadOnly, min, max);
    if (loading) {
      runs.subList(start, start + inputs.size()).clear();
      runs.add(start, out);
      view = null;
      mergedInCall = true;
      return true;
    }
    for (SimRun r : inputs) {
      r.merging = true;
    }
    view = null;
    mergesScheduled++;
    DesOperation op = new DesOperation(IoOperation.Kind.MERGE, NAME, bytes(fraction),
        (long) Math.ceil(inputBytes / setup.pageSize()), io.now());
    pending.put(op, new Pending(inputs, out));
    scheduler.schedule(op);
    return true;
  }

  /** Number of input runs of a pending merge. */
  int width(IoOperation op) {
    Pending p = pending.get(op);
    return p == null ? 0 : p.inputs().size();
  }

  /** Output level of a pending merge. */
  int outputLevel(IoOperation op) {
    Pending p = pending.get(op);
    return p == null ? -1 : p.output().level;
  }
}
