package org.strata.sim.des;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.IoOperation;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.MergeScheduler;
import org.strata.lsm.spi.MergeWindow;
import org.strata.lsm.spi.PolicyDriver;
import org.strata.lsm.spi.PolicyHost;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;
import org.strata.lsm.spi.RunListContext;

/**
 * One simulated LSM-tree as its merge policy sees it. Runs carry no keys, only the fraction of the
 * key space they cover: a run flushed from m uniform updates over N keys covers 1 − (1 − 1/N)^m of
 * it, independent runs merge to 1 − Π(1 − f), and runs of the initial load (distinct keys) are
 * disjoint, so their fractions add. A merge therefore writes fewer bytes than it reads when its
 * inputs overlap, as a real merge that keeps only the newest version does.
 *
 * <p>While loading, merges complete the instant they are asked for (a bulk load into the
 * policy's own shape); afterwards each becomes a {@link DesOperation} handed to the scheduler. The
 * runs are a {@link RunList}; the fractions are kept beside it by run id.
 */
final class DesIndex extends RunListContext {
  static final String NAME = "des";
  /** The simulated runs are single components without keys or sketches. */
  static final PolicyHost HOST = new PolicyHost("the discrete-event simulator", Set.of(),
      "run it on the engine with `strata two-phase`");
  private static final byte[] NO_KEY = new byte[0];

  /**
   * What the simulator keeps of a run beside the run list.
   *
   * @param fraction the fraction of the key space the run covers
   * @param loadOnly whether it holds only keys of the initial load (distinct, so fractions add)
   */
  private record Coverage(double fraction, boolean loadOnly) {}

  /** A scheduled merge: what was asked for and the run it will produce. */
  private record Pending(MergeRequest request, long outputRunId, ComponentInfo output,
      Coverage coverage) {}

  private final DesSetup setup;
  private final PolicyDriver driver;
  private final VirtualIo io;
  private MergeScheduler scheduler;
  private final Map<Long, Coverage> coverage = new HashMap<>();
  private final Map<IoOperation, Pending> pending = new IdentityHashMap<>();
  private long nextRunId = 1;
  private long flushes;
  private boolean loading;
  private long mergesScheduled;

  DesIndex(DesSetup setup, String policyName, MergePolicy policy, VirtualIo io) {
    super(HOST);
    this.setup = setup;
    this.driver = new PolicyDriver(policyName, policy);
    this.io = io;
  }

  void scheduler(MergeScheduler s) {
    this.scheduler = s;
  }

  MergePolicy policy() {
    return driver.policy();
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
        diskComponentAdded();
      }
    } finally {
      loading = false;
    }
  }

  /**
   * Lets the policy react to a new component: once, or while loading again after each call whose
   * merges completed at once.
   */
  void diskComponentAdded() {
    driver.diskComponentAdded(this, false, this);
  }

  /** Adds a flushed run at the newest end. */
  void addFlushed(double fraction, boolean loadOnly) {
    flushes++;
    long id = nextRunId++;
    coverage.put(id, new Coverage(fraction, loadOnly));
    runList(runList().addNewest(new RunInfo(id, 0,
        List.of(component(id, flushes, flushes, fraction)), false)));
  }

  /** The component a policy sees for a run covering {@code fraction} of the key space. */
  private ComponentInfo component(long runId, long minId, long maxId, double fraction) {
    long size = Math.max(1, Math.round(bytes(fraction)));
    long count = Math.max(1, Math.round(fraction * setup.entries()));
    return new ComponentInfo("des-" + runId, minId, maxId, size, count,
        Math.max(1, size / setup.pageSize()), NO_KEY, NO_KEY);
  }

  /** Replaces a finished merge's inputs with its output. */
  void mergeCompleted(IoOperation op) {
    Pending p = pending.remove(op);
    if (p == null) {
      throw new IllegalStateException("an unknown merge completed");
    }
    install(p);
  }

  private void install(Pending p) {
    runList(runList().apply(p.request(), List.of(p.output()), p.outputRunId()));
    coverage.keySet().removeAll(((MergeRequest.Runs) p.request()).runIds());
    coverage.put(p.outputRunId(), p.coverage());
  }

  /** Disk components (one per run here). */
  int componentCount() {
    return runs().size();
  }

  /** Runs at level 0: flushed and not merged yet. */
  int flushedRunCount() {
    int n = 0;
    for (RunInfo r : runs()) {
      if (r.level() == 0) {
        n++;
      }
    }
    return n;
  }

  long mergesScheduled() {
    return mergesScheduled;
  }

  /**
   * While loading, completes the merge at once; afterwards marks its inputs merging and hands a
   * {@link DesOperation} to the scheduler.
   */
  @Override
  protected boolean start(MergeRequest request, MergeWindow window) {
    double loaded = 0;
    double otherMissing = 1;
    boolean loadOnly = true;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    double inputBytes = 0;
    for (RunInfo r : window.runs()) {
      Coverage c = coverage.get(r.runId());
      if (c.loadOnly()) {
        loaded += c.fraction();
      } else {
        otherMissing *= 1 - c.fraction();
        loadOnly = false;
      }
      min = Math.min(min, r.minComponentId());
      max = Math.max(max, r.maxComponentId());
      inputBytes += bytes(c.fraction());
    }
    double fraction = 1 - (1 - Math.min(1, loaded)) * otherMissing;
    long id = nextRunId++;
    Pending p = new Pending(request, id, component(id, min, max, fraction),
        new Coverage(fraction, loadOnly));
    if (loading) {
      install(p);
      changedAtOnce();
      return true;
    }
    runList(runList().markMerging(request));
    mergesScheduled++;
    DesOperation op = new DesOperation(IoOperation.Kind.MERGE, NAME, bytes(fraction),
        (long) Math.ceil(inputBytes / setup.pageSize()), io.now());
    pending.put(op, p);
    scheduler.schedule(op);
    return true;
  }

  /** Number of input runs of a pending merge. */
  int width(IoOperation op) {
    Pending p = pending.get(op);
    return p == null ? 0 : ((MergeRequest.Runs) p.request()).runIds().size();
  }

  /** Output level of a pending merge. */
  int outputLevel(IoOperation op) {
    Pending p = pending.get(op);
    return p == null ? -1 : p.request().outputLevel();
  }
}
