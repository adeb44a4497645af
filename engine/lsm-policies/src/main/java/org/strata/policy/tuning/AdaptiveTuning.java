package org.strata.policy.tuning;

import java.util.List;
import java.util.Optional;

/**
 * The decision half of an adaptive Fluid store: counts the updates and point lookups a store sees
 * over a window of a fixed number of operations and, when the window closes, asks {@link
 * DostoevskyTuner} for the cheapest design (T, K, Z) for the mix it saw, on the store's shape at
 * that moment. It proposes a change only when the tuner's best design costs at most {@code 1 −
 * margin} times the current design's cost for that mix (hysteresis: small or noisy shifts of the
 * mix do not make the parameters flap). Zero-result and existing-key point lookups are counted
 * apart, as the cost model prices them apart (R and V); range lookups are not observed.
 *
 * <p>Not thread-safe: the caller serialises its calls (one lock or one thread). It holds no
 * clock: the window is a count of operations, so a test drives it exactly.
 */
public final class AdaptiveTuning {
  /** A design the tuner chose, with the model's costs of the old and new designs for the mix. */
  public record Change(int t, int k, int z, double oldCost, double newCost, Workload mix) {}

  private final long windowOps;
  private final double margin;
  private final double maxSpaceAmplification;
  private final int maxSizeRatio;
  private int t;
  private int k;
  private int z;
  private long updates;
  private long zeroResultLookups;
  private long existingLookups;

  /**
   * @param windowOps operations per window, at least 1
   * @param margin relative improvement a change needs, in [0, 1)
   * @param maxSpaceAmplification designs with a larger amp are never chosen
   * @param maxSizeRatio largest T tried, at least 2
   * @param t the current T
   * @param k the current K
   * @param z the current Z
   */
  public AdaptiveTuning(long windowOps, double margin, double maxSpaceAmplification,
      int maxSizeRatio, int t, int k, int z) {
    if (windowOps < 1) {
      throw new IllegalArgumentException("adaptive window-ops must be at least 1, got "
          + windowOps);
    }
    if (!(margin >= 0 && margin < 1)) {
      throw new IllegalArgumentException("adaptive margin must be in [0, 1), got " + margin);
    }
    if (maxSizeRatio < 2) {
      throw new IllegalArgumentException("adaptive max-size-ratio must be at least 2, got "
          + maxSizeRatio);
    }
    this.windowOps = windowOps;
    this.margin = margin;
    this.maxSpaceAmplification = maxSpaceAmplification;
    this.maxSizeRatio = maxSizeRatio;
    resume(t, k, z);
  }

  /**
   * Makes (T, K, Z) the current design without a decision, e.g. the design a store saved before
   * a restart.
   *
   * @throws IllegalArgumentException unless T >= 2 and 1 <= K, Z <= T−1
   */
  public void resume(int t, int k, int z) {
    if (t < 2 || k < 1 || k > t - 1 || z < 1 || z > t - 1) {
      throw new IllegalArgumentException("need T >= 2 and 1 <= K, Z <= T-1, got T = " + t
          + ", K = " + k + ", Z = " + z);
    }
    this.t = t;
    this.k = k;
    this.z = z;
  }

  /** Counts operations towards the current window. */
  public void count(long newUpdates, long newZeroResultLookups, long newExistingLookups) {
    if (newUpdates < 0 || newZeroResultLookups < 0 || newExistingLookups < 0) {
      throw new IllegalArgumentException("operation counts must be non-negative");
    }
    updates += newUpdates;
    zeroResultLookups += newZeroResultLookups;
    existingLookups += newExistingLookups;
  }

  /** Whether the operations counted fill the window. */
  public boolean windowClosed() {
    return updates + zeroResultLookups + existingLookups >= windowOps;
  }

  /**
   * Decides on the window's mix for a store of {@code shape} and starts the next window.
   *
   * @return the change to make, if the tuner's best design is cheaper than the current one by the
   *     margin; the tuning then holds the new design as current
   * @throws IllegalStateException if the window is not closed
   */
  public Optional<Change> closeWindow(LsmShape shape) {
    if (!windowClosed()) {
      throw new IllegalStateException("the window holds " + (updates + zeroResultLookups
          + existingLookups) + " of " + windowOps + " operations");
    }
    Workload mix = new Workload(updates, zeroResultLookups, existingLookups, 0, 0);
    skipWindow();
    return decide(shape, mix);
  }

  /** Starts the next window without a decision (the store's shape is not known yet). */
  public void skipWindow() {
    updates = 0;
    zeroResultLookups = 0;
    existingLookups = 0;
  }

  /** Counts and, when that closes the window, decides: {@link #count} then {@link #closeWindow}. */
  public Optional<Change> record(LsmShape shape, long newUpdates, long newZeroResultLookups,
      long newExistingLookups) {
    count(newUpdates, newZeroResultLookups, newExistingLookups);
    return windowClosed() ? closeWindow(shape) : Optional.empty();
  }

  /** The decision for one window's mix, without counting. */
  Optional<Change> decide(LsmShape shape, Workload mix) {
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
