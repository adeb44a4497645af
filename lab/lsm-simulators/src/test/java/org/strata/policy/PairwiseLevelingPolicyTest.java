package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.testing.PolicyTestHost;
import org.strata.sim.merge.MergeSimulator;

/** Luo & Carey's leveling ({@code leveling} with {@code pairwise=true}). */
class PairwiseLevelingPolicyTest {
  private static MergePolicy pairwise(String... kv) {
    Map<String, String> m = new java.util.HashMap<>(Map.of("pairwise", "true"));
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Plugins.mergePolicy(new NamedPlugin("leveling", m));
  }


  /** A policy that shows every merge request its inner policy makes (levels and sizes). */
  private static final class Spy implements MergePolicy {
    final MergePolicy inner;
    final List<String> merges = new ArrayList<>();

    Spy(MergePolicy inner) {
      this.inner = inner;
    }

    @Override
    public List<MergeRequest> findMerges(MergeContext index, boolean full) {
      List<MergeRequest> requests = inner.findMerges(index, full);
      for (MergeRequest r : requests) {
        List<RunInfo> runs = new ArrayList<>();
        for (long id : ((MergeRequest.Runs) r).runIds()) {
          index.runs().stream().filter(run -> run.runId() == id).forEach(runs::add);
        }
        merges.add(PolicyTestHost.shape(runs) + " -> " + r.outputLevel());
      }
      return requests;
    }

    @Override
    public void mergeStarted(MergeRequest request) {
      inner.mergeStarted(request);
    }

    @Override
    public boolean isMergeLagging(MergeContext index) {
      return inner.isMergeLagging(index);
    }
  }

  @Test
  void aFullLevelIsMergedDownOnItsOwnAndEveryMergeTakesTwoComponents() {
    Spy spy = new Spy(pairwise("size-ratio", "3"));
    MergeSimulator sim = new MergeSimulator(spy);
    // T = 3, M = 1: level 1 holds 2, level 2 holds 6. Merges complete at once here.
    String[] expected = {"2:2", "1:1 2:2", "2:4", "1:1 2:4", "3:6", "1:1 3:6", "2:2 3:6"};
    sim.flush(1);
    assertThat(PolicyTestHost.shape(sim.runs())).isEqualTo("1:1");
    for (String e : expected) {
      sim.flush(1);
      assertThat(PolicyTestHost.shape(sim.runs())).isEqualTo(e);
    }
    // The first flush becomes level 1 alone; each later flush merges with level 1's component;
    // a full level 1 joins level 2 (or becomes it) on its own, never with the arrival.
    assertThat(spy.merges).containsExactly("0:1 -> 1", "0:1 1:1 -> 1", "1:2 -> 2",
        "0:1 -> 1", "0:1 1:1 -> 1", "1:2 2:2 -> 2", "0:1 -> 1", "0:1 1:1 -> 1", "1:2 2:4 -> 2",
        "2:6 -> 3", "0:1 -> 1", "0:1 1:1 -> 1", "1:2 -> 2");
  }

  @Test
  void aNewComponentFormsWhileTheOldOneMergesDownAndEachLevelHasOneMergeLeavingIt() {
    MergePolicy p = pairwise("size-ratio", "10");
    // Oldest first: level 3 (not full), level 2 (50 of 90 units), level 1 full (9 of 9), a flush.
    PolicyTestHost tree = new PolicyTestHost().largestFlush(1).newest(3, 500).newest(2, 50)
        .newest(1, 9).newest(0, 1);
    tree.decide(p, false);
    // Level 1 joins level 2; the flush becomes level 1's new component meanwhile (bLSM's C1').
    assertThat(tree.mergeShapes()).containsExactly("1:9 2:50 -> 2", "0:1 -> 1");
    // The next flush waits: level 0 already has a merge leaving it, and so does level 1.
    tree.newest(0, 1);
    tree.decide(p, false);
    assertThat(tree.mergeShapes()).hasSize(2);
  }

  @Test
  void fullLevelsStartMergingDownDeepestFirstInOneCall() {
    MergePolicy p = pairwise("size-ratio", "10");
    // Level 2 full (90 of 90) and level 1 full: level 2 goes first, level 1 then becomes level
    // 2's new component, and the flush level 1's.
    PolicyTestHost tree = new PolicyTestHost().largestFlush(1).newest(3, 500).newest(2, 90)
        .newest(1, 9).newest(0, 1);
    tree.decide(p, false);
    assertThat(tree.mergeShapes()).containsExactly("2:90 3:500 -> 3", "1:9 -> 2", "0:1 -> 1");
  }

  @Test
  void aSourceWaitsWhileTheNextLevelIsFullAndCannotLeaveYet() {
    MergePolicy p = pairwise("size-ratio", "10");
    PolicyTestHost tree = new PolicyTestHost().largestFlush(1).newest(3, 500).newest(2, 90);
    tree.decide(p, false);
    assertThat(tree.mergeShapes()).containsExactly("2:90 3:500 -> 3");
    // A new level-2 component filled up while the old one is still merging down; a full level 1
    // and a flush arrive. Level 2 has its one merge leaving it, so level 1 cannot join the full
    // new component, and the flush cannot join the full level 1: both wait.
    tree.newest(2, 90).newest(1, 9).newest(0, 1);
    tree.decide(p, false);
    assertThat(tree.mergeShapes()).hasSize(1);
  }

  /** On random flush sizes, every merge takes one component of level i and one of level i+1. */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {3, 17, 2024})
  void everyMergeTakesAtMostTwoAdjacentComponents(long seed) {
    System.out.println("PairwiseLevelingPolicyTest seed " + seed);
    SplittableRandom random = new SplittableRandom(seed);
    Spy spy = new Spy(pairwise("size-ratio", Integer.toString(2 + random.nextInt(9))));
    MergeSimulator sim = new MergeSimulator(spy);
    for (int f = 0; f < 3000; f++) {
      sim.flush(1 + random.nextLong(100));
      assertThat(sim.rejectedMerges()).isZero();
      int previous = 0;
      for (RunInfo r : sim.runs()) {
        assertThat(r.level()).as("levels grow with age: %s", PolicyTestHost.shape(sim.runs()))
            .isGreaterThanOrEqualTo(previous);
        previous = r.level();
      }
    }
    for (String m : spy.merges) {
      String[] inputs = m.substring(0, m.indexOf(" -> ")).split(" ");
      int out = Integer.parseInt(m.substring(m.indexOf(" -> ") + 4));
      assertThat(inputs.length).as(m).isBetween(1, 2);
      assertThat(Integer.parseInt(inputs[0].split(":")[0])).as(m).isEqualTo(out - 1);
      if (inputs.length == 2) {
        assertThat(Integer.parseInt(inputs[1].split(":")[0])).as(m).isEqualTo(out);
      }
    }
  }

  @Test
  void theConstraintsAreTwiceTheLevelsAndTwoRunsPerLevel() {
    MergePolicy p = pairwise("size-ratio", "10");
    PolicyTestHost tree = new PolicyTestHost().largestFlush(1).newest(3, 500).newest(2, 50)
        .newest(1, 5);
    tree.decide(p, false);
    assertThat(p.componentConstraint()).isEqualTo(6);
    assertThat(pairwise("max-components", "9").componentConstraint()).isEqualTo(9);
    PolicyTestHost crowded = new PolicyTestHost().largestFlush(1).newest(3, 500).newest(2, 50)
        .newest(1, 5).newest(0, 1).newest(0, 1)
        .newest(0, 1);
    assertThat(p.isMergeLaggingLocally(crowded)).isFalse(); // nothing merging: writes go on
    crowded.decide(p, false);
    assertThat(p.isMergeLaggingLocally(crowded)).isTrue(); // three flushed runs, a merge pending
  }

  @Test
  void preemptiveIsRefusedWithPairwise() {
    assertThatThrownBy(() -> pairwise("preemptive", "true"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("preemptive")
        .hasMessageContaining("pairwise");
    assertThatThrownBy(() -> pairwise("pairwise", "maybe"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("pairwise");
    assertThat(pairwise("preemptive", "false")).isInstanceOf(PairwiseLevelingPolicy.class);
  }
}
