package org.strata.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.testing.PolicyTestHost;

class PartitionedLevelingPolicyTest {
  private static PolicyTestHost host() {
    return new PolicyTestHost(MergeContext.Capability.KEY_RANGES,
        MergeContext.Capability.PARTITIONED_RUNS);
  }

  /** A host that also moves files (as the engine does). */
  private static PolicyTestHost movingHost() {
    return new PolicyTestHost(MergeContext.Capability.KEY_RANGES,
        MergeContext.Capability.PARTITIONED_RUNS, MergeContext.Capability.ROUTED_MERGES);
  }

  private static ComponentInfo file(String name, int min, int max, long size) {
    return PolicyTestHost.file(name, min, max, size);
  }

  /** The input files of every partitioned merge asked for, in order. */
  private static List<List<String>> merges(PolicyTestHost h) {
    return h.mergedFiles();
  }

  private static List<Integer> levels(PolicyTestHost h) {
    return h.requests().stream().map(MergeRequest::outputLevel).toList();
  }

  private static MergePolicy policy(String... kv) {
    Map<String, String> m = new java.util.HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return Plugins.mergePolicy(new NamedPlugin("partitioned-leveling", m));
  }

  @Test
  void levelZeroMergesWithTheOverlappingLevelOneFiles() {
    PolicyTestHost l = host()
        .oldest(0, file("f4", 10, 20, 10)).oldest(0, file("f3", 15, 30, 10))
        .oldest(0, file("f2", 12, 25, 10)).oldest(0, file("f1", 11, 29, 10))
        .oldest(1, file("a", 0, 9, 10), file("b", 10, 19, 10),
            file("c", 25, 40, 10), file("d", 50, 60, 10));
    l.decide(policy("level1-size", "1000"), false);
    assertThat(merges(l)).containsExactly(List.of("f4", "f3", "f2", "f1", "b", "c"));
    assertThat(levels(l)).containsExactly(1);
  }

  @Test
  void exactlyTheTriggerMergesOnlyTheOldestRuns() {
    PolicyTestHost l = host();
    for (int i = 6; i >= 1; i--) {
      l.oldest(0, file("f" + i, i, i + 1, 10));
    }
    l.decide(policy("merge-exactly-l0-trigger", "true", "level1-size", "1000"), false);
    assertThat(merges(l)).containsExactly(List.of("f4", "f3", "f2", "f1"));
  }

  @Test
  void roundRobinWalksTheFilesOfALevelAndChooseBestTakesTheLeastOverlap() {
    PolicyTestHost l = host()
        .oldest(1, file("a", 0, 9, 50), file("b", 10, 19, 50),
            file("c", 20, 29, 50))
        .oldest(2, file("x", 0, 4, 10), file("y", 5, 12, 10),
            file("z", 30, 40, 10));
    MergePolicy rr = policy("level1-size", "100", "size-ratio", "10");
    for (int i = 0; i < 4; i++) {
      l.decide(rr, false);
      l.abandonMerges(); // the cursor moves on whatever became of the last merge
    }
    assertThat(merges(l)).containsExactly(List.of("a", "x", "y"), List.of("b", "y"), List.of("c"),
        List.of("a", "x", "y"));
    assertThat(levels(l)).containsOnly(2);
    PolicyTestHost best = host()
        .oldest(1, l.runs().get(0).components().toArray(new ComponentInfo[0]))
        .oldest(2, l.runs().get(1).components().toArray(new ComponentInfo[0]));
    best.decide(policy("level1-size", "100", "selection", "choose-best"), false);
    assertThat(merges(best)).containsExactly(List.of("c"));
  }

  /**
   * With {@code trivial-move}, a file with nothing under it at the next level moves there without
   * a rewrite (the policy is asked again at once and its cursor moves on); a file with files under
   * it still merges; without the parameter the same file is rewritten by a one-file merge.
   */
  @Test
  void aFileWithNothingUnderItMovesDownWithTrivialMove() {
    PolicyTestHost l = movingHost()
        .oldest(1, file("a", 0, 9, 50), file("b", 10, 19, 50), file("c", 20, 29, 50))
        .oldest(2, file("x", 0, 4, 10), file("y", 5, 12, 10));
    l.decide(policy("level1-size", "100", "size-ratio", "10", "trivial-move", "true"), false);
    List<MergeRequest> asked = l.requests();
    assertThat(asked).hasSize(1);
    assertThat(asked.get(0)).isInstanceOf(MergeRequest.Components.class); // a overlaps x and y
    assertThat(merges(l)).containsExactly(List.of("a", "x", "y"));
    l.abandonMerges();
    MergePolicy moving = policy("level1-size", "100", "size-ratio", "10", "trivial-move", "true");
    PolicyTestHost m = movingHost()
        .oldest(1, file("b", 10, 19, 50), file("c", 20, 29, 50))
        .oldest(2, file("x", 0, 4, 10));
    m.decide(moving, false);
    assertThat(m.requests().get(0)).isEqualTo(new MergeRequest.Move(List.of("b"), List.of(2)));
    assertThat(m.runs()).anySatisfy(r -> {
      assertThat(r.level()).isEqualTo(2);
      assertThat(r.components()).extracting(ComponentInfo::name).containsExactly("x", "b");
    });
    PolicyTestHost rewrite = movingHost()
        .oldest(1, file("b", 10, 19, 50), file("c", 20, 29, 50))
        .oldest(2, file("x", 0, 4, 10));
    rewrite.decide(policy("level1-size", "100", "size-ratio", "10"), false);
    assertThat(rewrite.requests()).hasSize(1);
    assertThat(merges(rewrite)).containsExactly(List.of("b"));
  }

  /** A file that overlaps more than ten files' bytes two levels down is merged, not moved. */
  @Test
  void noTrivialMoveOverTooMuchTwoLevelsDown() {
    PolicyTestHost l = decideOverDeepFile(11 * 64);
    assertThat(l.requests()).hasSize(1);
    assertThat(merges(l)).containsExactly(List.of("b"));
    PolicyTestHost within = decideOverDeepFile(10 * 64);
    assertThat(within.requests().get(0)).isInstanceOf(MergeRequest.Move.class);
  }

  /**
   * Level 1's file {@code b} is due and has nothing under it in level 2; a file of {@code
   * deepBytes} in level 3 overlaps it. Files are 64 bytes, and trivial moves are on.
   */
  private static PolicyTestHost decideOverDeepFile(long deepBytes) {
    PolicyTestHost h = movingHost()
        .oldest(1, file("b", 10, 19, 50), file("c", 20, 29, 50))
        .oldest(2, file("x", 0, 4, 10))
        .oldest(3, file("deep", 0, 100, deepBytes));
    h.decide(policy("level1-size", "100", "size-ratio", "10", "file-size", "64",
        "trivial-move", "true"), false);
    return h;
  }

  /** Where the host cannot move files (the simulators), the file is merged as without it. */
  @Test
  void aHostThatCannotMoveGetsTheMerge() {
    PolicyTestHost l = host()
        .oldest(1, file("b", 10, 19, 50), file("c", 20, 29, 50))
        .oldest(2, file("x", 0, 4, 10));
    l.decide(policy("level1-size", "100", "size-ratio", "10", "trivial-move", "true"), false);
    assertThat(merges(l)).containsExactly(List.of("b"));
  }

  @Test
  void trivialMoveIsABoolean() {
    assertThatThrownBy(() -> policy("trivial-move", "yes"))
        .hasMessageContaining("trivial-move");
  }

  @Test
  void stopsWritesAtTheLevelZeroStopCountWhileMerging() {
    PolicyTestHost l = host();
    for (int i = 0; i < 12; i++) {
      l.oldest(0, file("f" + i, i, i, 1));
    }
    MergePolicy p = policy();
    assertThat(p.isMergeLagging(l)).isFalse(); // nothing is merging: writes must not wait forever
    l.markMerging(11);
    assertThat(p.isMergeLagging(l)).isTrue();
  }
}
