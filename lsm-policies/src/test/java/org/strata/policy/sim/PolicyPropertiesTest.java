package org.strata.policy.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.RunInfo;

/** Invariants of every policy on random flush sequences, in the simulator. */
class PolicyPropertiesTest {
  private static final List<String> BOUNDED = List.of("constant", "bigtable", "binomial",
      "min-latency", "exploring");
  private static final List<String> OTHERS = List.of("size-tiered", "prefix", "leveling",
      "tiering", "lazy-leveling", "fluid", "no-merge");

  @Provide
  Arbitrary<List<Long>> flushes() {
    return Arbitraries.longs().between(1, 1000).list().ofMinSize(20).ofMaxSize(400);
  }

  @Property(tries = 60)
  void boundedDepthPoliciesNeverLeaveMoreThanKRuns(@ForAll("bounded") String name,
      @ForAll @IntRange(min = 1, max = 9) int k, @ForAll("flushes") List<Long> sizes) {
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

  @Property(tries = 60)
  void everyPolicyMergesOnlyContiguousLiveRunsAndKeepsComponentIdsOrdered(
      @ForAll("others") String name, @ForAll("flushes") List<Long> sizes) {
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

  @Provide
  Arbitrary<String> bounded() {
    return Arbitraries.of(BOUNDED);
  }

  @Provide
  Arbitrary<String> others() {
    return Arbitraries.of(OTHERS);
  }
}
