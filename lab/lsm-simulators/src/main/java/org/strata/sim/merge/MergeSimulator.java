package org.strata.sim.merge;

import java.util.List;
import java.util.Set;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.MergeWindow;
import org.strata.lsm.spi.PolicyDriver;
import org.strata.lsm.spi.PolicyHost;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;
import org.strata.lsm.spi.RunListContext;

/**
 * Mao et al.'s model of a merge policy (docs/papers/mao.md#simulation-model), driving the real
 * {@link MergePolicy} objects: each flush adds a run whose component id is the flush ordinal,
 * merges complete instantly and their output's size is the sum of the inputs. As in the engine, the
 * policy is called after the flush and again after each merge it asks for, until it asks for none
 * ({@link PolicyDriver}). The runs are a {@link RunList}; what is the simulator's own are the two
 * write amplifications.
 *
 * <p>Two write amplifications are kept: the engine's (flushed bytes plus merged bytes, over
 * flushed bytes) and the model's (Problem 1: bytes of newly created runs over flushed bytes, where
 * a flush merged at once counts only inside the merged run).
 */
public final class MergeSimulator extends RunListContext {
  /** The simulator's runs are single components without keys or sketches. */
  public static final PolicyHost HOST = new PolicyHost("the merge-policy simulator", Set.of(),
      "run it on the engine with `strata two-phase`");
  private static final byte[] NO_KEY = new byte[0];

  private final PolicyDriver driver;
  private long nextRunId = 1;
  private long flushes;
  private long flushedBytes;
  private long engineBytes;
  private long modelBytes;
  private double componentCountSum;
  private long currentFlushRunId = -1;
  private long lastComponentId;
  private long currentFlushSize;
  private boolean currentFlushAbsorbed;

  /** A simulator of {@code policy}; errors name it by its class. */
  public MergeSimulator(MergePolicy policy) {
    this(policy.getClass().getSimpleName(), policy);
  }

  /** A simulator of {@code policy}; errors name it {@code policyName}. */
  public MergeSimulator(String policyName, MergePolicy policy) {
    super(HOST);
    this.driver = new PolicyDriver(policyName, policy);
  }

  /**
   * A simulator of the named policy.
   *
   * @throws org.strata.lsm.InvalidConfigurationException for an unknown name, a bad parameter, or
   *     a policy that needs what the simulator does not model ({@link #HOST})
   */
  public static MergeSimulator of(NamedPlugin policy) {
    return new MergeSimulator(policy.name(), Plugins.mergePolicy(policy, HOST));
  }

  /**
   * Adds a flush of {@code size} bytes and lets the policy merge.
   *
   * @throws IllegalStateException if the policy is still merging after {@value
   *     PolicyDriver#MAX_CALLS} calls
   */
  public void flush(long size) {
    flush(size, lastComponentId + 1);
  }

  /**
   * Adds a flush of {@code size} bytes whose component id the host chose, and lets the policy
   * merge: for hosts whose ids skip numbers (Hyracks numbers an index's flushes by a sequence
   * that an empty flush or an empty bulk load also advances), so that a policy that reads ids
   * decides here as it does there.
   *
   * @param componentId greater than every earlier flush's
   */
  public void flush(long size, long componentId) {
    if (size <= 0) {
      throw new IllegalArgumentException("flush sizes must be positive, got " + size);
    }
    if (componentId <= lastComponentId) {
      throw new IllegalArgumentException("component id " + componentId + " is not above the"
          + " last flush's, " + lastComponentId);
    }
    flushes++;
    lastComponentId = componentId;
    long id = nextRunId++;
    runList(runList().addNewest(run(id, componentId, componentId, size, 0)));
    flushedBytes += size;
    engineBytes += size;
    modelBytes += size;
    currentFlushRunId = id;
    currentFlushSize = size;
    currentFlushAbsorbed = false;
    driver.diskComponentAdded(this, false, this);
    componentCountSum += runs().size();
  }

  private static RunInfo run(long id, long minId, long maxId, long size, int level) {
    return new RunInfo(id, level, List.of(new ComponentInfo("sim-" + id, minId, maxId, size, size,
        1, NO_KEY, NO_KEY)), false);
  }

  /** Merges at once: the output run's size is the sum of the inputs'. */
  @Override
  protected boolean start(MergeRequest request, MergeWindow window) {
    long size = 0;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    boolean absorbsFlush = false;
    for (RunInfo r : window.runs()) {
      size += r.sizeBytes();
      min = Math.min(min, r.minComponentId());
      max = Math.max(max, r.maxComponentId());
      absorbsFlush |= r.runId() == currentFlushRunId;
    }
    long id = nextRunId++;
    runList(runList().apply(request, run(id, min, max, size, request.outputLevel()).components(),
        id));
    engineBytes += size;
    modelBytes += size;
    if (absorbsFlush && !currentFlushAbsorbed) {
      modelBytes -= currentFlushSize; // the flush counts only inside the merged run
      currentFlushAbsorbed = true;
    }
    if (absorbsFlush) {
      currentFlushRunId = id;
      currentFlushSize = size;
      currentFlushAbsorbed = true;
    }
    changedAtOnce();
    return true;
  }

  /** The statistics after the flushes so far. */
  public Checkpoint checkpoint() {
    return new Checkpoint(flushes,
        flushedBytes == 0 ? 0 : (double) engineBytes / flushedBytes,
        flushedBytes == 0 ? 0 : (double) modelBytes / flushedBytes,
        flushes == 0 ? 0 : componentCountSum / flushes,
        runs().size());
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
