package org.strata.policy.tuning;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Dostoevsky's tuner (docs/papers/dostoevsky.md#tuner):
 * finds the Fluid design (T, K, Z) that minimises the mean operation
 * cost of Eq. (14) for a workload, skipping designs whose space amplification (Eq. 13) exceeds a
 * bound. The space is small (T up to {@code maxSizeRatio}, K and Z in 1..T−1), so every design is
 * evaluated exhaustively rather than by the paper's divide and conquer; the answer is the same.
 */
public final class DostoevskyTuner {
  private DostoevskyTuner() {}

  /** A design with its cost for the workload. */
  public record Candidate(FluidCosts costs, double cost) {}

  /**
   * Every admissible design, cheapest first.
   *
   * @param maxSpaceAmplification designs with a larger amp are skipped (use infinity for none)
   * @param maxSizeRatio largest T tried (capped at T_lim)
   */
  public static List<Candidate> rank(LsmShape shape, Workload workload,
      double maxSpaceAmplification, int maxSizeRatio) {
    int tMax = (int) Math.max(2, Math.min(maxSizeRatio, Math.floor(shape.sizeRatioLimit())));
    List<Candidate> out = new ArrayList<>();
    for (int t = 2; t <= tMax; t++) {
      for (int k = 1; k <= t - 1; k++) {
        for (int z = 1; z <= t - 1; z++) {
          FluidCosts c = DostoevskyCostModel.evaluate(shape, workload.selectivity(), t, k, z);
          if (c.spaceAmplification() <= maxSpaceAmplification + 1e-12) {
            out.add(new Candidate(c, c.cost(workload)));
          }
        }
      }
    }
    out.sort(Comparator.comparingDouble(Candidate::cost));
    return out;
  }
}
