package org.strata.reproduce;

import java.util.List;

/**
 * What {@code strata reproduce mao} runs: the merge-policy simulator with uniform flushes.
 *
 * @param policies the bounded-depth policies (Table I has bigtable, binomial, exploring and
 *     min-latency)
 * @param k the bounds on the component count (Table I: 3, 4, 5, 6, 7, 8, 10)
 * @param flushes flushes simulated per policy and k (Table I reports n up to 20,000)
 * @param staticTolerance relative tolerance of a cell for binomial and min-latency (spec: 15%)
 * @param sizeBasedTolerance relative tolerance for bigtable and exploring (spec: 25%)
 * @param curveK the k whose write amplification against flushes is drawn (as the paper's Fig. 2)
 */
public record MaoConfig(List<String> policies, List<Integer> k, long flushes,
    double staticTolerance, double sizeBasedTolerance, int curveK) {
  public MaoConfig {
    if (policies == null || policies.isEmpty()) {
      throw new IllegalArgumentException("mao: policies must name at least one policy");
    }
    if (k == null || k.isEmpty() || k.stream().anyMatch(v -> v < 1)) {
      throw new IllegalArgumentException("mao: k must list bounds of at least 1, got " + k);
    }
    if (flushes < 1) {
      throw new IllegalArgumentException("mao: flushes must be at least 1, got " + flushes);
    }
    policies = List.copyOf(policies);
    k = List.copyOf(k);
  }
}
