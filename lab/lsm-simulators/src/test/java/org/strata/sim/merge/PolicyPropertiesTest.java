package org.strata.sim.merge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.testing.property.Generator;
import org.strata.lsm.testing.property.Lists;
import org.strata.lsm.testing.property.PropertyRunner;

/** Invariants of every policy on random flush sequences, in the simulator. */
class PolicyPropertiesTest {
  private static final List<String> BOUNDED = List.of("constant", "bigtable", "binomial",
      "min-latency", "exploring");
  private static final List<String> OTHERS = List.of("size-tiered", "concurrent",
      "size-bounded-concurrent", "prefix", "leveling", "tiering", "lazy-leveling", "fluid",
      "no-merge");

  /** A policy, its bound (for bounded-depth policies) and a sequence of flush sizes. */
  record Case(String policy, int k, List<Long> flushes) {}

  private static Generator<Case> cases(List<String> policies) {
    return r -> new Case(policies.get(r.nextInt(policies.size())), 1 + r.nextInt(9),
        Lists.of(r, 20, 400, x -> 1 + x.nextLong(1000)));
  }

  private static PropertyRunner<Case> runner(List<String> policies) {
    return PropertyRunner.forAll(cases(policies)).tries(60)
        .shrinkWith(Lists.shrinking(Case::flushes, (c, f) -> new Case(c.policy(), c.k(), f), 1));
  }

  @Test
  void boundedDepthPoliciesNeverLeaveMoreThanKRuns() {
    runner(BOUNDED).check("bounded-depth policies never leave more than K runs",
        c -> boundedDepth(c.policy(), c.k(), c.flushes()));
  }

  @Test
  void everyPolicyMergesOnlyContiguousLiveRunsAndKeepsComponentIdsOrdered() {
    runner(OTHERS).check("every policy merges only contiguous live runs",
        c -> contiguousAndOrdered(c.policy(), c.flushes()));
  }

  private static void boundedDepth(String name, int k, List<Long> sizes) {
    MergePolicy p = Plugins.mergePolicy(new NamedPlugin(name,
        Map.of("num-components", Integer.toString(k))));
    MergeSimulator sim = new MergeSimulator(p);
    long flushed = 0;
    for (long s : sizes) {
      sim.flush(s);
      flushed += s;
      assertThat(sim.checkpoint().components()).isLessThanOrEqualTo(k);
      assertThat(sim.rejectedMerges()).isZero();
      long total = 0;
      for (RunInfo r : sim.runs()) {
        total += r.sizeBytes();
      }
      assertThat(total).isEqualTo(flushed); // nothing lost or counted twice
    }
  }

  private static void contiguousAndOrdered(String name, List<Long> sizes) {
    MergeSimulator sim = new MergeSimulator(Plugins.mergePolicy(new NamedPlugin(name,
        Map.of())));
    for (long s : sizes) {
      sim.flush(s);
      assertThat(sim.rejectedMerges()).isZero();
      // Stable: runs cover disjoint, descending ranges of flush ordinals (newest first).
      long previousMin = Long.MAX_VALUE;
      for (RunInfo r : sim.runs()) {
        assertThat(r.maxComponentId()).isLessThan(previousMin);
        previousMin = r.minComponentId();
      }
    }
  }
}
