package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.testing.PolicyTestHost;

class ConstantMergePolicyTest {

  /** A stack of components where merges complete instantly (Mao et al.'s model). */
  private static PolicyTestHost stack() {
    return new PolicyTestHost().mergingAtOnce();
  }

  @Test
  void countCyclesOneToKAndMatchesTheSpecsWorkedValue() {
    MergePolicy p = Plugins.mergePolicy(new NamedPlugin("constant",
        Map.of("num-components", "3")));
    PolicyTestHost s = stack();
    List<Integer> counts = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      s.flush(p, 1);
      counts.add(s.runs().size());
    }
    assertThat(counts).containsExactly(1, 2, 3, 1, 2, 3, 1, 2);
    // docs/papers/mao.md#constant: k = 3, n = 20,000 uniform flushes give W = 3334.17 (written /
    // flushed - 1 counts only merge output; that W counts newly created SSTables over flushed,
    // where a flush merged at once counts only in the merged SSTable).
    PolicyTestHost big = stack();
    for (int t = 0; t < 20_000; t++) {
      big.flush(p, 1);
    }
    // Model WA: flushes that were merged immediately count only in the merged table.
    // Every merge here is triggered by the flush just before it, which counts only in the merge.
    double modelWa = (big.bytesWritten() - big.requests().size()) / (double) big.bytesFlushed();
    assertThat(modelWa).isCloseTo(3334.17, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void fullMergeRequestAndNoMerge() {
    MergePolicy none = Plugins.mergePolicy(new NamedPlugin("no-merge", Map.of()));
    PolicyTestHost s = stack();
    for (int t = 0; t < 10; t++) {
      s.flush(none, 1);
    }
    assertThat(s.runs()).hasSize(10);
    assertThat(none.isMergeLagging(s)).isFalse();
    s.decide(none, true);
    assertThat(s.runs()).hasSize(1);
  }

  @Test
  void badParametersAreRejectedWithTheirNames() {
    assertThatThrownBy(() -> Plugins.mergePolicy(new NamedPlugin("constant",
        Map.of("num-components", "0"))))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("num-components").hasMessageContaining("'0'")
        .hasMessageContaining("1 to 10000");
    assertThatThrownBy(() -> Plugins.mergePolicy(new NamedPlugin("constant",
        Map.of("k", "3"))))
        .hasMessageContaining("unknown parameter 'k'").hasMessageContaining("num-components");
    assertThatThrownBy(() -> Plugins.mergePolicy(new NamedPlugin("binomal", Map.of())))
        .hasMessageContaining("binomal")
        .hasMessageContaining("binomial, concurrent, constant, exploring");
  }
}
