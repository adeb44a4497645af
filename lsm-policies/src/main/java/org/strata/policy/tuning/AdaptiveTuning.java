package org.strata.policy.tuning;

import java.util.List;
import java.util.Optional;

/**
 * The decision half of an adaptive Fluid store: counts the updates and point lookups a store sees
 * over a window of a fixed number of operations and, when the window closes, asks {@link
 * DostoevskyTuner} for the cheapest design (T, K, Z) for the mix it saw. It proposes a change only
 * when the tuner's best design costs at most {@code 1 − margin} times the current design's cost for
 * that mix (hysteresis: small or noisy shifts of the mix do not make the parameters flap). Lookups
 * are counted as existing-key lookups; range lookups are not observed.
 *
 * <p>Not thread-safe: the caller serialises {@link #record} calls (one lock or one thread). It
 * holds no clock: the window is a count of operations, so a test drives it exactly.
 */
public final class AdaptiveTuning {
  /** A design the tuner chose, with the model's costs of the old and new designs for the mix. */
  public record Change(int t, int k, int z, double oldCost, double newCost, Workload mix) {}

  private final LsmShape shape;
  private final long windowOps;
  private final double margin;
  private final double maxSpaceAmplification;
  private final int maxSizeRatio;
  private int t;
  private int k;
  private int z;
  private long updates;
  private long lookups;

  /**
   * @param shape the store as the cost model sees it
   * @param windowOps operations per window, at least 1
   * @param margin relative improvement a change needs, in [0, 1)
   * @param maxSpaceAmplification designs with a larger amp are never chosen
   * @param maxSizeRatio largest T tried
   * @param t the current T
   * @param k the current K
   * @param z the current Z
   */
  public AdaptiveTuning(LsmShape shape, long windowOps, double margin,
      double maxSpaceAmplification, int maxSizeRatio, int t, int k, int z) {
    if (windowOps < 1) {
      throw new IllegalArgumentException("adaptive window-ops must be at least 1, got "
          + windowOps);
    }
    if (!(margin >= 0 && margin < 1)) {
      throw new IllegalArgumentException("adaptive margin must be in [0, 1), got " + margin);
    }
    if (t < 2 || k < 1 || k > t - 1 || z < 1 || z > t - 1) {
      throw new IllegalArgumentException("need T >= 2 and 1 <= K, Z <= T-1");
    }
    this.shape = shape;
    this.windowOps = windowOps;
    this.margin = margin;
    this.maxSpaceAmplification = maxSpaceAmplification;
    this.maxSizeRatio = maxSizeRatio;
    this.t = t;
    this.k = k;
    this.z = z;
  }

  /**
   * Counts operations; when they close the window, decides and starts the next window.
   *
   * @return the change to make, if the window closed and the tuner's best design is cheaper than
   *     the current one by the margin; the tuning then holds the new design as current
   */
  public Optional<Change> record(long newUpdates, long newLookups) {
    if (newUpdates < 0 || newLookups < 0) {
      throw new IllegalArgumentException("operation counts must be non-negative");
    }
    updates += newUpdates;
    lookups += newLookups;
    if (updates + lookups < windowOps) {
      return Optional.empty();
    }
    Workload mix = new Workload(updates, 0, lookups, 0, 0);
    updates = 0;
    lookups = 0;
    return decide(mix);
  }

  /** The decision for one window's mix, without counting. */
  Optional<Change> decide(Workload mix) {
    List<DostoevskyTuner.Candidate> ranked =
        DostoevskyTuner.rank(shape, mix, maxSpaceAmplification, maxSizeRatio);
    if (ranked.isEmpty()) {
      return Optional.empty();
    }
    FluidCosts best = ranked.get(0).costs();
    double newCost = ranked.get(0).cost();
    double oldCost = DostoevskyCostModel.evaluate(shape, mix.selectivity(), t, k, z).cost(mix);
    if (best.sizeRatio() == t && best.k() == k && best.z() == z) {
      return Optional.empty();
    }
    if (newCost > (1 - margin) * oldCost) {
      return Optional.empty();
    }
    t = best.sizeRatio();
    k = best.k();
    z = best.z();
    return Optional.of(new Change(t, k, z, oldCost, newCost, mix));
  }

  /** The current T. */
  public int t() {
    return t;
  }

  /** The current K. */
  public int k() {
    return k;
  }

  /** The current Z. */
  public int z() {
    return z;
  }
}
