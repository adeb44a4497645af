package org.strata.policy.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.strata.lsm.testing.PolicyTestHost.key;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeRequest;

/**
 * docs/papers/iam.md#invariants, items 2, 3, 4, 5, 6 and 9, on the policy's decisions over a
 * laid-out run list.
 */
class AppendMergeTreePolicyTest {
  private static final long C = 1000; // node-size; full at 950
  private static final int T = 4;

  private static AppendMergeTreePolicy lsa() {
    return new AppendMergeTreePolicy(T, C, 95, 8, ChildRule.LSA);
  }

  private static AppendMergeTreePolicy iam(int m, int k) {
    return new AppendMergeTreePolicy(T, C, 95, 8, IamRule.fixed(m, k));
  }

  @Test
  void aFullNodeWithTwoTChildrenIsSplitInHalf() {
    TreeContext ctx = new TreeContext();
    ComponentInfo p = ctx.seq(1, 0, 0, 1000, C);
    for (int i = 0; i < 2 * T; i++) {
      ctx.seq(2, 0, i * 100, i * 100 + 50, 100);
    }
    ctx.decide(lsa(), false);
    assertThat(ctx.moves()).isEmpty();
    assertThat(ctx.merges()).hasSize(1);
    MergeRequest.Routed split = ctx.merges().get(0);
    assertThat(split.componentNames()).containsExactly(p.name());
    assertThat(split.routes()).extracting(MergeRequest.Route::outputLevel)
        .containsExactly(TreeLayout.code(1, 0), TreeLayout.code(1, 0));
    assertThat(split.routes().get(1).fromKey()).isEqualTo(key(T * 100)); // child T of 2T
  }

  @Test
  void aFlushedNodeKeepsItsRangeAsAnEmptyNodeUntilARestart() {
    TreeContext ctx = new TreeContext();
    ctx.seq(1, 0, 0, 1000, C);
    ctx.seq(1, 0, 2000, 2100, 10);
    ctx.seq(2, 0, 100, 200, 10);
    ctx.seq(2, 0, 2000, 2050, 10);
    AppendMergeTreePolicy policy = lsa();
    ctx.decide(policy, false);
    MergeRequest.Routed flush = ctx.merges().get(0);
    // The flush completes: the parent's data is in its child.
    ctx.runList(ctx.runList().apply(flush, List.of(new ComponentInfo("out", 1, 1, C, 10, 1,
        key(0), key(1000))), () -> 500L));
    List<TreeLayout.Node> level1 = policy.tree(ctx).nodes(1);
    assertThat(level1).hasSize(2);
    assertThat(level1.get(0).sequences()).isEmpty();
    assertThat(level1.get(0).minKey()).isEqualTo(key(0));
    assertThat(level1.get(0).maxKey()).isEqualTo(key(1000));
    assertThat(policy.flushCutKeys(ctx)).hasSize(1); // the next flush is routed to it too
    assertThat(ctx.tree().nodes(1)).hasSize(1); // a new policy (after a restart) forgets it
  }

  @Test
  void keptRangesWidenOneNodeOrStandAloneButNeverOverlapTwo() {
    TreeContext ctx = new TreeContext();
    ctx.seq(1, 0, 100, 200, 10);
    ctx.seq(1, 0, 400, 500, 10);
    java.util.Map<Integer, List<byte[][]>> kept = java.util.Map.of(1, List.of(
        new byte[][] {key(50), key(250)}, new byte[][] {key(600), key(700)},
        new byte[][] {key(150), key(450)}));
    List<TreeLayout.Node> nodes = TreeLayout.of(ctx.runs(), kept).nodes(1);
    assertThat(nodes).hasSize(3);
    assertThat(nodes.get(0).minKey()).isEqualTo(key(50));
    assertThat(nodes.get(0).maxKey()).isEqualTo(key(250));
    assertThat(nodes.get(1).minKey()).isEqualTo(key(400));
    assertThat(nodes.get(2).sequences()).isEmpty();
    assertThat(nodes.get(2).topSlot()).isEqualTo(-1);
  }

  @Test
  void aFullNodeWithoutChildrenMovesKeepingItsSequencesOrder() {
    TreeContext ctx = new TreeContext();
    ComponentInfo old = ctx.seq(1, 0, 0, 100, 500);
    ComponentInfo young = ctx.seq(1, 1, 10, 90, 500);
    ctx.seq(2, 0, 500, 600, 100);
    ctx.decide(lsa(), false);
    assertThat(ctx.merges()).isEmpty();
    assertThat(ctx.moves()).hasSize(1);
    assertThat(ctx.moves().get(0).componentNames()).containsExactly(young.name(), old.name());
    assertThat(ctx.moves().get(0).toLevels())
        .containsExactly(TreeLayout.code(2, 1), TreeLayout.code(2, 0));
    TreeLayout after = ctx.tree();
    assertThat(after.nodes(1)).isEmpty();
    assertThat(after.nodes(2)).hasSize(2);
    assertThat(after.nodes(2).get(0).sequences()).extracting(ComponentInfo::name)
        .containsExactly(young.name(), old.name()); // newest first
  }

  @Test
  void iamMergesAMovedNodeWhoseSequencesTheNextLevelMayNotHold() {
    TreeContext ctx = new TreeContext(); // m = 2, k = 2: level 3 nodes hold one sequence
    ComponentInfo old = ctx.seq(2, 0, 0, 100, 500);
    ComponentInfo young = ctx.seq(2, 1, 10, 90, 500); // full, two sequences, no children
    ctx.seq(3, 0, 500, 600, 100);
    ctx.decide(iam(2, 2), false);
    assertThat(ctx.moves()).isEmpty();
    MergeRequest.Routed down = ctx.merges().get(0);
    assertThat(down.componentNames()).containsExactlyInAnyOrder(young.name(), old.name());
    assertThat(down.routes()).extracting(MergeRequest.Route::outputLevel)
        .containsExactly(TreeLayout.code(3, 0));
    assertThat(down.routes().get(0).dropAntimatter()).isFalse();

    TreeContext one = new TreeContext(); // m = 1, k = 1: two flushed runs, nothing in level 1
    ComponentInfo first = one.seq(0, 0, 0, 100, 300);
    ComponentInfo second = one.seq(0, 1, 50, 150, 300);
    one.seq(2, 0, 500, 600, 100);
    one.decide(iam(1, 1), false);
    assertThat(one.moves()).isEmpty();
    assertThat(one.merges().get(0).componentNames())
        .containsExactlyInAnyOrder(first.name(), second.name());
    assertThat(one.merges().get(0).routes()).extracting(MergeRequest.Route::outputLevel)
        .containsExactly(TreeLayout.code(1, 0));

    TreeContext lsa = new TreeContext(); // an appending level takes the node as it is
    lsa.seq(2, 0, 0, 100, 500);
    lsa.seq(2, 1, 10, 90, 500);
    lsa.seq(3, 0, 500, 600, 100);
    lsa.decide(iam(3, 2), false);
    assertThat(lsa.merges()).isEmpty();
    assertThat(lsa.moves().get(0).toLevels())
        .containsExactly(TreeLayout.code(3, 1), TreeLayout.code(3, 0));
  }

  @Test
  void lsaAppendsToChildrenAndMergesOnlyAFullLeafChildRecutIntoSmallNodes() {
    TreeContext ctx = new TreeContext();
    ComponentInfo p0 = ctx.seq(1, 0, 0, 1000, 500);
    ComponentInfo p1 = ctx.seq(1, 1, 0, 1000, 500);
    ctx.seq(2, 0, 100, 200, 100); // A
    ComponentInfo b0 = ctx.seq(2, 0, 400, 500, 500); // B, full
    ComponentInfo b1 = ctx.seq(2, 1, 400, 500, 500);
    ctx.seq(2, 0, 800, 900, 30); // C with three sequences
    ctx.seq(2, 1, 800, 900, 30);
    ctx.seq(2, 2, 800, 900, 30);
    ctx.decide(lsa(), false);
    assertThat(ctx.merges()).hasSize(1);
    MergeRequest.Routed r = ctx.merges().get(0);
    assertThat(r.componentNames()).containsExactlyInAnyOrder(p0.name(), p1.name(), b0.name(),
        b1.name());
    List<MergeRequest.Route> routes = r.routes();
    assertThat(routes).hasSize(3);
    assertThat(routes.get(0).outputLevel()).isEqualTo(TreeLayout.code(2, 1)); // A: append
    assertThat(routes.get(0).dropAntimatter()).isFalse();
    assertThat(routes.get(1).outputLevel()).isEqualTo(TreeLayout.code(2, 0)); // B: merge
    assertThat(routes.get(1).targetFileSize()).isEqualTo(C / ((T + 1) / 2));
    assertThat(routes.get(1).dropAntimatter()).isTrue();
    assertThat(Arrays.compareUnsigned(routes.get(1).fromKey(), key(200))).isPositive();
    assertThat(Arrays.compareUnsigned(routes.get(1).fromKey(), key(400))).isNotPositive();
    assertThat(routes.get(2).outputLevel()).isEqualTo(TreeLayout.code(2, 3)); // C: append
  }

  @Test
  void lsaNeverMergesIntoAnInternalLevel() {
    TreeContext ctx = new TreeContext();
    ctx.seq(1, 0, 0, 1000, C);
    ctx.seq(2, 0, 100, 200, 900); // internal children, large but not full
    ctx.seq(2, 1, 100, 200, 10);
    ctx.seq(2, 0, 400, 500, 10);
    ctx.seq(3, 0, 0, 1000, 10);
    ctx.decide(lsa(), false);
    assertThat(ctx.merges()).hasSize(1);
    assertThat(ctx.merges().get(0).componentNames()).hasSize(1); // the parent's only
    assertThat(ctx.merges().get(0).routes()).extracting(MergeRequest.Route::outputLevel)
        .containsExactly(TreeLayout.code(2, 2), TreeLayout.code(2, 1));
  }

  @Test
  void iamMergesAMixedLevelChildExactlyWhenItHoldsKSequences() {
    TreeContext ctx = new TreeContext();
    ctx.seq(1, 0, 0, 1000, C);
    ctx.seq(2, 0, 100, 200, 10); // X: one sequence -> append
    ComponentInfo y0 = ctx.seq(2, 0, 400, 500, 10); // Y: k = 2 sequences -> merge
    ComponentInfo y1 = ctx.seq(2, 1, 400, 500, 10);
    ctx.seq(3, 0, 0, 1000, 10);
    ctx.decide(iam(2, 2), false);
    MergeRequest.Routed r = ctx.merges().get(0);
    assertThat(r.componentNames()).contains(y0.name(), y1.name()).hasSize(3);
    assertThat(r.routes()).extracting(MergeRequest.Route::outputLevel)
        .containsExactly(TreeLayout.code(2, 1), TreeLayout.code(2, 0));
    assertThat(r.routes().get(1).dropAntimatter()).isFalse(); // level 3 holds older data
  }

  @Test
  void aMergedLeafChildStaysOneNodeUnlessItWasFull() {
    // Mixed level 2 (the leaf level), k = 2. Y holds k sequences and is not full: the merge
    // yields a new single-sequence node (section 5.1.2, Fig. 5), one file. Z holds k sequences
    // and is full: a full leaf child is re-cut into new nodes of C_t/5 (section 4.2.1, Fig. 4).
    TreeContext ctx = new TreeContext();
    ctx.seq(1, 0, 0, 1000, C); // the full parent
    ctx.seq(2, 0, 100, 200, 10); // X: one sequence, appended
    ComponentInfo y0 = ctx.seq(2, 0, 400, 500, 300); // Y: 600 bytes, not full
    ComponentInfo y1 = ctx.seq(2, 1, 400, 500, 300);
    ComponentInfo z0 = ctx.seq(2, 0, 700, 800, 500); // Z: 960 bytes, full (95% of 1000)
    ComponentInfo z1 = ctx.seq(2, 1, 700, 800, 460);
    ctx.decide(iam(2, 2), false);
    assertThat(ctx.merges()).hasSize(1);
    MergeRequest.Routed r = ctx.merges().get(0);
    assertThat(r.componentNames()).contains(y0.name(), y1.name(), z0.name(), z1.name());
    List<MergeRequest.Route> routes = r.routes();
    assertThat(routes).extracting(MergeRequest.Route::outputLevel).containsExactly(
        TreeLayout.code(2, 1), TreeLayout.code(2, 0), TreeLayout.code(2, 0));
    assertThat(routes.get(1).targetFileSize()).isEqualTo(Long.MAX_VALUE); // Y: one node
    assertThat(routes.get(2).targetFileSize()).isEqualTo(C / ((T + 1) / 2)); // Z: re-cut

    // A merging level (below m = 1): a leaf child that is not full is merged into one node.
    TreeContext merging = new TreeContext();
    merging.seq(1, 0, 0, 1000, C);
    ComponentInfo child = merging.seq(2, 0, 100, 200, 500);
    merging.decide(iam(1, 1), false);
    MergeRequest.Routed m = merging.merges().get(0);
    assertThat(m.componentNames()).contains(child.name());
    assertThat(m.routes()).hasSize(1);
    assertThat(m.routes().get(0).outputLevel()).isEqualTo(TreeLayout.code(2, 0));
    assertThat(m.routes().get(0).targetFileSize()).isEqualTo(Long.MAX_VALUE);
    assertThat(m.routes().get(0).dropAntimatter()).isTrue(); // the leaf holds the oldest data
  }

  @Test
  void iamAlwaysMergesBelowTheMixedLevelAndAppendsAboveIt() {
    TreeContext ctx = new TreeContext();
    ctx.seq(2, 0, 0, 1000, C); // full node in level 2 (m = 2), children in merging level 3
    ComponentInfo child = ctx.seq(3, 0, 100, 200, 10);
    ctx.decide(iam(2, 2), false);
    assertThat(ctx.merges().get(0).componentNames()).contains(child.name());
    assertThat(ctx.merges().get(0).routes().get(0).outputLevel()).isEqualTo(TreeLayout.code(3, 0));

    TreeContext above = new TreeContext();
    above.seq(1, 0, 0, 1000, C);
    above.seq(2, 0, 100, 200, 10);
    above.seq(2, 1, 100, 200, 10);
    above.seq(2, 2, 100, 200, 10);
    above.seq(3, 0, 0, 1000, 10);
    above.decide(iam(3, 1), false); // level 2 is an appending level
    assertThat(above.merges().get(0).routes().get(0).outputLevel())
        .isEqualTo(TreeLayout.code(2, 3));
  }

  @Test
  void iamWithMOneAndKOneKeepsOneSequencePerNodeLikeLeveling() {
    TreeContext ctx = new TreeContext();
    ctx.seq(0, 0, 0, 1000, 300); // a flushed memory component
    ComponentInfo child = ctx.seq(1, 0, 100, 200, 10);
    ctx.decide(iam(1, 1), false);
    assertThat(ctx.merges().get(0).componentNames()).contains(child.name());
    assertThat(ctx.merges().get(0).routes()).extracting(MergeRequest.Route::outputLevel)
        .containsOnly(TreeLayout.code(1, 0));
    TreeContext lsa = new TreeContext();
    ComponentInfo flushed = lsa.seq(0, 0, 0, 1000, 300);
    lsa.seq(1, 0, 100, 200, 10);
    lsa.decide(lsa(), false);
    // m = n+1 appends: the flushed file lies in the one level-1 node's route and joins it as its
    // newest sequence by a move, rewriting nothing
    assertThat(lsa.merges()).isEmpty();
    assertThat(lsa.moves().get(0).componentNames()).containsExactly(flushed.name());
    assertThat(lsa.moves().get(0).toLevels()).containsExactly(TreeLayout.code(1, 1));
  }

  @Test
  void flushesAreCutAtTheLevelOneRoutesAndEachFileMovesIntoItsNode() {
    TreeContext ctx = new TreeContext();
    ctx.seq(1, 0, 100, 200, 10);
    ctx.seq(1, 0, 400, 500, 10);
    ctx.seq(1, 1, 400, 500, 10);
    ctx.seq(2, 0, 0, 1000, 10);
    AppendMergeTreePolicy p = lsa();
    List<byte[]> cuts = p.flushCutKeys(ctx);
    assertThat(cuts).hasSize(1);
    assertThat(Arrays.compareUnsigned(cuts.get(0), key(200))).isPositive();
    assertThat(Arrays.compareUnsigned(cuts.get(0), key(400))).isNotPositive();
    // a flush cut there: two files of one level-0 run
    TreeContext cut = new TreeContext();
    cut.seq(1, 0, 100, 200, 10);
    cut.seq(1, 0, 400, 500, 10);
    cut.seq(1, 1, 400, 500, 10);
    cut.seq(2, 0, 0, 1000, 10);
    ComponentInfo a = new ComponentInfo("a", 1, 1, 50, 1, 1, key(0), key(250));
    ComponentInfo b = new ComponentInfo("b", 1, 1, 50, 1, 1, key(450), key(900));
    cut.runList(cut.runList().addNewest(new org.strata.lsm.spi.RunInfo(999, 0, List.of(a, b),
        false)));
    cut.decide(p, false);
    assertThat(cut.merges()).isEmpty();
    assertThat(cut.moves().get(0).componentNames()).containsExactly("a", "b");
    assertThat(cut.moves().get(0).toLevels())
        .containsExactly(TreeLayout.code(1, 1), TreeLayout.code(1, 2));
    // a file across the cut cannot be moved: the flushed run is merged and routed instead
    TreeContext across = new TreeContext();
    across.seq(1, 0, 100, 200, 10);
    across.seq(1, 0, 400, 500, 10);
    across.seq(2, 0, 0, 1000, 10);
    across.seq(0, 0, 0, 900, 50);
    across.decide(p, false);
    assertThat(across.moves()).isEmpty();
    assertThat(across.merges()).hasSize(1);
  }

  @Test
  void aFullInternalChildIsFlushedBeforeItsParent() {
    TreeContext ctx = new TreeContext();
    ctx.seq(1, 0, 0, 1000, C); // full parent
    ComponentInfo child = ctx.seq(2, 0, 100, 200, C); // full internal child
    ctx.seq(3, 0, 150, 160, 10);
    ctx.decide(lsa(), false);
    assertThat(ctx.merges()).hasSize(1);
    assertThat(ctx.merges().get(0).componentNames()).containsExactly(child.name());
  }

  @Test
  void theCombineVictimHasTwoNeighboursAndTheFewestChildrenUnderThem() {
    TreeContext ctx = new TreeContext();
    int[] childrenUnder = {3, 1, 0, 0, 2, 5};
    for (int i = 0; i < childrenUnder.length; i++) {
      ctx.seq(1, 0, i * 100, i * 100 + 99, 10);
      for (int c = 0; c < childrenUnder[i]; c++) {
        ctx.seq(2, 0, i * 100 + c * 10, i * 100 + c * 10 + 5, 10);
      }
    }
    AppendMergeTreePolicy p = lsa();
    TreeLayout tree = ctx.tree();
    // T_cn: node1 3+1+0=4, node2 1+0+0=1, node3 0+0+2=2, node4 0+2+5=7
    assertThat(p.combineVictim(tree, 1).minKey()).isEqualTo(key(200));
    ctx.decide(p, false); // 6 > t nodes in level 1: node 2 goes (no children: moves)
    assertThat(ctx.moves().get(0).componentNames()).hasSize(1);
    assertThat(ctx.moves().get(0).toLevels()).containsExactly(TreeLayout.code(2, 0));
    assertThat(ctx.tree().nodes(1)).hasSizeLessThanOrEqualTo(T);
  }

  @Test
  void aFullLeafLevelBecomesInternal() {
    TreeContext ctx = new TreeContext();
    for (int i = 0; i < T; i++) {
      ctx.seq(1, 0, i * 100, i * 100 + 50, i == 0 ? C : 10);
    }
    AppendMergeTreePolicy p = lsa();
    assertThat(p.leafLevel(ctx.tree())).isEqualTo(2);
    ctx.decide(p, false);
    assertThat(ctx.moves()).hasSize(1); // the full node of the old leaf level moves down
    assertThat(ctx.tree().nodes(2)).hasSize(1);
  }

  @Test
  void writesWaitOnlyWhileAnOperationRunsAndFlushedRunsPileUp() {
    TreeContext ctx = new TreeContext();
    ctx.seq(1, 0, 0, 1000, C);
    ctx.seq(2, 0, 0, 100, 10);
    for (int i = 0; i < 8; i++) {
      ctx.seq(0, 0, i, i + 1, 10);
    }
    AppendMergeTreePolicy p = lsa();
    assertThat(p.isMergeLagging(ctx)).isFalse();
    ctx.decide(p, false);
    assertThat(ctx.merges()).hasSize(1);
    assertThat(p.isMergeLagging(ctx)).isTrue();
    ctx.decide(p, false); // one operation at a time
    assertThat(ctx.merges()).hasSize(1);
  }
}
