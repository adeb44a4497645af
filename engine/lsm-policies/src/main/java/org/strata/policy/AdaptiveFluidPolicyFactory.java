package org.strata.policy;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;
import org.strata.policy.tuning.AdaptiveTuning;

/**
 * {@code adaptive-fluid}: an {@link AdaptiveFluidMergePolicy} (docs/adaptive.md). Parameters:
 *
 * <ul>
 *   <li>{@code size-ratio} (default 10), {@code K} and {@code Z} (default 1): the design a new
 *       index starts with (leveling at T = 10 by default); an index that has changed its design
 *       keeps the one it saved;
 *   <li>{@code window-ops} (default 100000): updates plus point lookups per decision;
 *   <li>{@code margin} (default 0.1): a change needs the model's cost for the window's mix to
 *       fall by at least this fraction;
 *   <li>{@code max-size-ratio} (default 16): the largest T the tuner tries;
 *   <li>{@code max-space-amp} (default 1, as {@code strata tune}): designs whose space
 *       amplification Z − 1 + 1/T exceeds it are never chosen; 0 for no bound;
 *   <li>{@code filter-bits-per-key} (default 10, about the engine's default 1% false positives),
 *       {@code mu} and {@code phi} (default 1, data in the page cache): the cost model's M/N, μ
 *       and φ;
 *   <li>{@code page-size} (default 4096, the engine's {@code io.page-size}): the model's block;
 *   <li>{@code preemptive} (default true), as for {@code fluid}.
 * </ul>
 */
public final class AdaptiveFluidPolicyFactory implements MergePolicyFactory {
  @Override
  public String name() {
    return "adaptive-fluid";
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of("size-ratio", "K", "Z", "window-ops", "margin", "max-size-ratio",
        "max-space-amp", "filter-bits-per-key", "mu", "phi", "page-size", "preemptive");
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of("merge-policy 'adaptive-fluid'", parameters, parameterNames());
    int t = p.intValue("size-ratio", 10, 2, 1000);
    int k = p.intValue("K", 1, 1, t - 1);
    int z = p.intValue("Z", 1, 1, t - 1);
    int window = p.intValue("window-ops", 100_000, 1, Integer.MAX_VALUE);
    double margin = p.doubleValue("margin", 0.1, 0, 0.99);
    int maxT = p.intValue("max-size-ratio", 16, 2, 1000);
    if (t > maxT) {
      throw InvalidConfigurationException.of("merge-policy 'adaptive-fluid' parameter size-ratio",
          t, "at most max-size-ratio (" + maxT + "), the largest T the tuner may choose");
    }
    double spaceAmp = p.doubleValue("max-space-amp", 1, 0, 1000);
    double bits = p.doubleValue("filter-bits-per-key", 10, 0, 64);
    double mu = p.positiveDouble("mu", 1, 1e6);
    double phi = p.positiveDouble("phi", 1, 1e6);
    int pageSize = p.intValue("page-size", 4096, 512, 1 << 20);
    FluidMergePolicy fluid = new FluidMergePolicy(t, k, z, false,
        p.booleanValue("preemptive", true), 0);
    AdaptiveTuning tuning = new AdaptiveTuning(window, margin,
        spaceAmp == 0 ? Double.POSITIVE_INFINITY : spaceAmp, maxT, t, k, z);
    return new AdaptiveFluidMergePolicy(fluid, tuning, pageSize, bits, mu, phi);
  }
}
