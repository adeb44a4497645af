package org.strata.policy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.LevelShape;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.OperationCounts;
import org.strata.lsm.spi.RunInfo;
import org.strata.policy.tuning.AdaptiveTuning;
import org.strata.policy.tuning.LsmShape;

/**
 * A Fluid LSM-tree that moves its design (T, K, Z) with its workload (docs/adaptive.md): it reads
 * the index's update and point-lookup counts ({@link MergeContext#operationCounts()}) at every
 * call, and when a window of operations closes, {@link AdaptiveTuning} asks Dostoevsky's tuner for
 * the cheapest design for the mix the window saw, on the index's shape at that moment (entries and
 * entry size from its runs, buffer from its largest flush). A change {@linkplain
 * FluidMergePolicy#reshape reshapes} the {@link FluidMergePolicy} it wraps: merges already
 * scheduled finish as chosen, runs stay where they are, and the merges decided from then on follow
 * the new rules. Writes never stop for a change.
 *
 * <p>Crash-safe: the design is saved with {@link MergeContext#savePolicyState} (the engine's
 * manifest) before {@link #levelShape()} shows it and before the first merge under it is
 * scheduled, and read back at the first call after a
 * restart, so a reopened index goes on with the design it had, not the configured one. The
 * configured design is the starting point of a new index.
 *
 * <p>While the index still holds more components than the new design's component constraint
 * allows (a move from tiering towards leveling), the constraint stays at the larger bound of the
 * design it left, until the count first fits the new one: a change of design does not stall
 * writers for the merges it causes.
 */
public final class AdaptiveFluidMergePolicy implements MergePolicy {
  /** Keys of the saved state. */
  static final String T_KEY = "adaptive.size-ratio";
  static final String K_KEY = "adaptive.runs-per-level";
  static final String Z_KEY = "adaptive.runs-at-largest-level";
  static final String CHANGES_KEY = "adaptive.changes";

  private final FluidMergePolicy fluid;
  private final AdaptiveTuning tuning;
  private final int pageSize;
  private final double filterBitsPerKey;
  private final double mu;
  private final double phi;
  private boolean started;
  private OperationCounts seen = OperationCounts.NONE;
  private long changes;
  /** The constraint of the design left, while the index does not fit the new one; else 0. */
  private int transitionalConstraint;
  /** {@link #componentConstraint()} as of the policy's last call, for writer threads. */
  private volatile int constraint;

  /**
   * @param fluid the policy to reshape, with the configured design
   * @param tuning the window and hysteresis, holding the same design
   * @param pageSize B's page, bytes
   * @param filterBitsPerKey the Bloom filter bits per key the cost model assumes
   * @param mu sequential over random read speed, for the cost model
   * @param phi write over read cost, for the cost model
   */
  public AdaptiveFluidMergePolicy(FluidMergePolicy fluid, AdaptiveTuning tuning, int pageSize,
      double filterBitsPerKey, double mu, double phi) {
    LevelShape s = fluid.levelShape().orElseThrow();
    if (s.sizeRatio() != tuning.t() || s.runsPerLevel() != tuning.k()
        || s.runsAtLargestLevel() != tuning.z()) {
      throw new IllegalArgumentException("the tuning and the policy start from different designs");
    }
    this.fluid = fluid;
    this.tuning = tuning;
    this.pageSize = pageSize;
    this.filterBitsPerKey = filterBitsPerKey;
    this.mu = mu;
    this.phi = phi;
    this.constraint = fluid.componentConstraint();
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    adapt(index);
    List<MergeRequest> merges = fluid.findMerges(index, fullMergeRequested);
    constraint = currentConstraint();
    return merges;
  }

  @Override
  public void mergeStarted(MergeRequest request) {
    fluid.mergeStarted(request);
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    adapt(index);
    boolean lagging = fluid.isMergeLagging(index);
    if (transitionalConstraint > 0 && index.diskComponentCount() <= fluid.componentConstraint()) {
      transitionalConstraint = 0; // the index fits the new design
    }
    constraint = currentConstraint();
    if (lagging && transitionalConstraint > 0) {
      return index.diskComponentCount() > transitionalConstraint;
    }
    return lagging;
  }

  @Override
  public boolean isMergeLaggingLocally(MergeContext index) {
    adapt(index);
    boolean lagging = fluid.isMergeLaggingLocally(index);
    return lagging && transitionalConstraint == 0;
  }

  @Override
  public Optional<LevelShape> levelShape() {
    return fluid.levelShape();
  }

  @Override
  public int componentConstraint() {
    return constraint;
  }

  private int currentConstraint() {
    return Math.max(fluid.componentConstraint(), transitionalConstraint);
  }

  /** Restores the saved design once, then counts operations and decides when a window closes. */
  private void adapt(MergeContext index) {
    if (!started) {
      started = true;
      resume(index.policyState());
      seen = index.operationCounts();
    }
    OperationCounts now = index.operationCounts();
    OperationCounts d = now.since(seen);
    seen = now;
    tuning.count(d.updates(), d.zeroResultLookups(), d.existingLookups());
    if (!tuning.windowClosed()) {
      return;
    }
    LsmShape shape = shape(index);
    if (shape == null) {
      tuning.skipWindow();
      return;
    }
    int before = fluid.componentConstraint();
    tuning.closeWindow(shape).ifPresent(c -> {
      changes++;
      Map<String, Long> state = new LinkedHashMap<>();
      state.put(T_KEY, (long) c.t());
      state.put(K_KEY, (long) c.k());
      state.put(Z_KEY, (long) c.z());
      state.put(CHANGES_KEY, changes);
      index.savePolicyState(state); // durable before levelShape() shows the new design
      fluid.reshape(c.t(), c.k(), c.z());
      transitionalConstraint = Math.max(transitionalConstraint, before);
    });
  }

  private void resume(Map<String, Long> state) {
    Long t = state.get(T_KEY);
    Long k = state.get(K_KEY);
    Long z = state.get(Z_KEY);
    if (t == null || k == null || z == null) {
      return; // a new index, or one this policy never changed
    }
    if (t < 2 || t > 1000 || k < 1 || k > t - 1 || z < 1 || z > t - 1) {
      throw new IllegalStateException("the saved adaptive design T = " + t + ", K = " + k
          + ", Z = " + z + " is not a Fluid design (need T >= 2 and 1 <= K, Z <= T-1)");
    }
    fluid.reshape(t.intValue(), k.intValue(), z.intValue());
    tuning.resume(t.intValue(), k.intValue(), z.intValue());
    changes = state.getOrDefault(CHANGES_KEY, 0L);
  }

  /**
   * The index as the cost model sees it: N entries on disk, B = page / mean entry bytes, P = the
   * largest flush in pages; null while the index holds less than two flushes' worth (the model
   * has no levels to trade then) or nothing is known yet.
   */
  LsmShape shape(MergeContext index) {
    List<RunInfo> runs = index.runs(); // one snapshot: the engine builds it under the tree lock
    long entries = 0;
    long bytes = 0;
    for (RunInfo r : runs) {
      for (ComponentInfo c : r.components()) {
        entries += c.entryCount();
        bytes += c.sizeBytes();
      }
    }
    long flush = index.largestFlushBytes();
    if (flush == 0) {
      for (RunInfo r : runs) {
        if (r.level() == 0) {
          flush = Math.max(flush, r.sizeBytes());
        }
      }
    }
    if (entries == 0 || flush == 0 || bytes < 2 * flush) {
      return null;
    }
    double entryBytes = (double) bytes / entries;
    double perBlock = Math.max(1, pageSize / entryBytes);
    double bufferBlocks = Math.max(1, (double) flush / pageSize);
    return new LsmShape(entries, perBlock, bufferBlocks, filterBitsPerKey, mu, phi);
  }
}
