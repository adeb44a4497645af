package org.strata.policy.iam;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;

/**
 * The LSA-tree and the IAM-tree (Gong et al., ICPP 2019) as a merge policy over the engine's run
 * list, laid out by {@link TreeLayout}; the two differ only in their {@link ChildRule}.
 *
 * <p>Every time it is called, and while no merge of the index runs (it runs one operation at a
 * time, like the paper's single-threaded configuration), it does the first of these that applies
 * (docs/papers/iam.md#flush, #split and #combine):
 *
 * <ol>
 *   <li><b>Pre-processing.</b> The leaf level {@code n} is the deepest level with nodes, or the
 *       level below it once it holds {@code t^n} nodes or more (the old leaf level becomes
 *       internal). An internal level {@code i} with more than {@code t^i} nodes is <b>combined</b>:
 *       the node with two neighbours and the fewest children under the union of the three ranges
 *       ({@code T_cn <= 3t}) is flushed to its children and so disappears.
 *   <li><b>Node flush, bottom-up.</b> From level {@code n−1} up to level 1, a full node (at least
 *       {@code full-percent} of {@code node-size}) with {@code 2t} or more children is <b>split</b>
 *       into two nodes with half the children each; one without children is <b>moved</b> to the
 *       next level by a metadata change; otherwise, if none of its internal children is full, its
 *       sequences are merged and each child's part is appended to the child or merged with it, by
 *       the rule. A full leaf child that is merged is re-cut into nodes of {@code node-size /
 *       ((t+1)/2)} (section 4.2.1; docs/papers/iam.md#open-decisions, A1); any other merged child
 *       becomes one node holding one sequence (sections 5.1.1 and 5.1.2).
 *   <li><b>The memory component's flush.</b> Flushed memory components (runs of level 0) are
 *       flushed into level 1 the same way: moved when they overlap no node of level 1, else
 *       merged and routed.
 * </ol>
 *
 * <p>A record whose key lies in no child's range goes to the closest child (leaf children: the
 * cut is the midpoint of the two neighbours' first eight key bytes) or, between internal
 * children, to the one with fewer children. The component constraint holds writes while {@code
 * l0-stop} flushed runs wait and an operation runs.
 */
public final class AppendMergeTreePolicy implements MergePolicy {
  private static final Logger LOG = LogManager.getLogger(AppendMergeTreePolicy.class);

  /** Bound on the nodes combined away (nothing to write) in one call. */
  private static final int MAX_STEPS_PER_CALL = 10_000;

  private final int t;
  private final long nodeBytes;
  private final int fullPercent;
  private final long leafNodeBytes;
  private final int l0Stop;
  private final ChildRule rule;
  /**
   * Per tree level, the key ranges of nodes that flushed their data, kept as empty nodes as in
   * the paper (a flushed parent keeps its range). In memory only: after a restart they are
   * forgotten and their ranges go to the neighbours.
   */
  private final Map<Integer, List<byte[][]>> kept = new HashMap<>();
  /** The rule's shape as last logged (IAM's m and k change with the level sizes). */
  private String shape = "";

  /**
   * @param t fan-out, at least 2
   * @param nodeBytes node capacity {@code C_t}, positive
   * @param fullPercent a node is full at this percentage of {@code nodeBytes}, 1..100
   * @param l0Stop flushed runs that stall writes while an operation runs, at least 1
   * @param rule LSA's or IAM's append-or-merge rule
   */
  public AppendMergeTreePolicy(int t, long nodeBytes, int fullPercent, int l0Stop,
      ChildRule rule) {
    if (t < 2 || nodeBytes < 1 || fullPercent < 1 || fullPercent > 100 || l0Stop < 1) {
      throw new IllegalArgumentException("bad LSA/IAM settings: t=" + t + " node-size="
          + nodeBytes + " full-percent=" + fullPercent + " l0-stop=" + l0Stop);
    }
    this.t = t;
    this.nodeBytes = nodeBytes;
    this.fullPercent = fullPercent;
    this.leafNodeBytes = Math.max(1, nodeBytes / ((t + 1) / 2));
    this.l0Stop = l0Stop;
    this.rule = rule;
  }

  /** The append-or-merge rule. */
  public ChildRule rule() {
    return rule;
  }

  /** The fan-out {@code t}. */
  public int fanout() {
    return t;
  }

  @Override
  public List<MergeRequest> findMerges(MergeContext index, boolean fullMergeRequested) {
    for (int step = 0; step < MAX_STEPS_PER_CALL; step++) {
      List<RunInfo> runs = index.runs();
      for (RunInfo r : runs) {
        if (r.merging()) {
          return List.of(); // one operation at a time
        }
      }
      TreeLayout tree = TreeLayout.of(runs, kept);
      String now = rule.describe(tree, leafLevel(tree)) + ", " + leafLevel(tree) + " levels";
      if (!now.equals(shape)) {
        shape = now;
        LOG.info("append/merge tree: {}", now);
      }
      Step next = next(tree);
      if (next == null) {
        return List.of();
      }
      if (next.node != null && next.node.level() >= 1) {
        forget(next.node);
        if (next.kind.equals("flush")) { // the flushed node keeps its range
          kept.computeIfAbsent(next.node.level(), l -> new ArrayList<>())
              .add(new byte[][] {next.node.minKey(), next.node.maxKey()});
        }
      }
      if (next.inputs.isEmpty()) {
        continue; // an empty node combined away: nothing to write
      }
      if (next.routes == null) {
        // A move writes nothing and is done at once; the host then asks again.
        return List.of(MergeRequest.ofMove(next.inputs, next.moveLevels));
      }
      return List.of(MergeRequest.ofRouted(next.inputs, next.routes));
    }
    return List.of();
  }

  @Override
  public boolean isMergeLagging(MergeContext index) {
    int flushed = 0;
    boolean running = false;
    for (RunInfo r : index.runs()) {
      flushed += r.level() == 0 ? 1 : 0;
      running |= r.merging();
    }
    return running && flushed >= l0Stop;
  }

  /**
   * The boundaries of the routes into level 1 (as a node flush of the memory component would route
   * it), so that each flushed file lies in one level-1 node's route and can join it by a move
   * (docs/papers/iam.md#flush: the memory component is flushed straight into the level-1 nodes).
   */
  @Override
  public List<byte[]> flushCutKeys(MergeContext index) {
    TreeLayout tree = tree(index);
    List<TreeLayout.Node> level1 = tree.nodes(1);
    int n = leafLevel(tree);
    List<byte[]> cuts = new ArrayList<>();
    for (int j = 1; j < level1.size(); j++) {
      cuts.add(boundary(tree, level1.get(j - 1), level1.get(j), 1 == n));
    }
    return cuts;
  }

  /** Drops the kept ranges that overlap {@code node} in its level. */
  private void forget(TreeLayout.Node node) {
    List<byte[][]> ranges = kept.get(node.level());
    if (ranges != null) {
      ranges.removeIf(r -> node.overlaps(r[0], r[1]));
    }
  }

  /** The tree as the policy sees it: the run list and the kept ranges of flushed nodes. */
  TreeLayout tree(MergeContext index) {
    return TreeLayout.of(index.runs(), kept);
  }

  /**
   * What to do next: a move ({@code routes == null}) or a routed merge; {@code node} is the node
   * of level 1 or more it flushes, splits, combines or moves (null for flushed runs).
   */
  record Step(String kind, List<ComponentInfo> inputs, List<MergeRequest.Route> routes,
      List<Integer> moveLevels, TreeLayout.Node node) {
    Step(String kind, List<ComponentInfo> inputs, List<MergeRequest.Route> routes,
        List<Integer> moveLevels) {
      this(kind, inputs, routes, moveLevels, null);
    }
  }

  /** The leaf level {@code n} of {@code tree}. */
  int leafLevel(TreeLayout tree) {
    int deepest = Math.max(1, tree.deepest());
    return tree.nodes(deepest).size() >= pow(t, deepest) ? deepest + 1 : deepest;
  }

  /** The next operation for {@code tree}, or null if nothing is due. */
  Step next(TreeLayout tree) {
    int n = leafLevel(tree);
    for (int i = 1; i < n; i++) {
      List<TreeLayout.Node> level = tree.nodes(i);
      if (level.size() > pow(t, i)) {
        TreeLayout.Node victim = combineVictim(tree, i);
        if (victim != null) {
          Step s = flush(tree, victim, n, "combine");
          if (s != null) {
            return s;
          }
        }
      }
    }
    for (int i = n - 1; i >= 1; i--) {
      for (TreeLayout.Node p : tree.nodes(i)) {
        if (!full(p)) {
          continue;
        }
        List<TreeLayout.Node> children = tree.overlapping(i + 1, p.minKey(), p.maxKey());
        if (children.size() >= 2 * t) {
          return split(p, children);
        }
        Step s = flush(tree, p, n, "flush");
        if (s != null) {
          return s;
        }
      }
    }
    return flushLevel0(tree, n);
  }

  /** The combine victim of level {@code i}: two neighbours, least T_cn, T_cn <= 3t; or null. */
  TreeLayout.Node combineVictim(TreeLayout tree, int i) {
    List<TreeLayout.Node> level = tree.nodes(i);
    TreeLayout.Node best = null;
    int bestTcn = Integer.MAX_VALUE;
    for (int x = 1; x + 1 < level.size(); x++) {
      int tcn = tree.overlapping(i + 1, level.get(x - 1).minKey(), level.get(x + 1).maxKey())
          .size();
      if (tcn <= 3 * t && tcn < bestTcn) {
        bestTcn = tcn;
        best = level.get(x);
      }
    }
    return best;
  }

  private boolean full(TreeLayout.Node node) {
    return node.bytes() * 100 >= nodeBytes * fullPercent;
  }

  /** The flushed runs (one node each, newest first) flushed into level 1. */
  private Step flushLevel0(TreeLayout tree, int n) {
    List<TreeLayout.Node> flushed = tree.nodes(0);
    if (flushed.isEmpty()) {
      return null;
    }
    byte[] lo = null;
    byte[] hi = null;
    List<ComponentInfo> inputs = new ArrayList<>();
    List<Integer> levels = new ArrayList<>();
    for (int r = 0; r < flushed.size(); r++) {
      TreeLayout.Node f = flushed.get(r);
      lo = lo == null || Arrays.compareUnsigned(f.minKey(), lo) < 0 ? f.minKey() : lo;
      hi = hi == null || Arrays.compareUnsigned(f.maxKey(), hi) > 0 ? f.maxKey() : hi;
      for (ComponentInfo c : f.sequences()) {
        inputs.add(c);
        levels.add(TreeLayout.code(1, Math.min(TreeLayout.SLOTS - 1, flushed.size() - 1 - r)));
      }
    }
    List<TreeLayout.Node> children = tree.overlapping(1, lo, hi);
    if (children.isEmpty()) {
      return flushed.size() <= rule.sequenceLimit(tree, 1, n)
          ? new Step("move", inputs, null, levels) : mergedDown(inputs, 1, null);
    }
    if (1 < n && anyFull(children)) {
      return null;
    }
    Step appends = appendByMoves(tree, flushed.get(flushed.size() - 1), n);
    if (appends != null) {
      return appends;
    }
    return route(tree, inputs, children, n, "flush");
  }

  /**
   * The oldest flushed run appended to level 1 by moves: each of its files (cut by {@link
   * #flushCutKeys}) lies in the route of one level-1 node and becomes that node's newest sequence;
   * null if a file spans two routes or goes to a node the rule merges with.
   */
  private Step appendByMoves(TreeLayout tree, TreeLayout.Node oldest, int n) {
    List<TreeLayout.Node> level1 = tree.nodes(1);
    if (level1.isEmpty()) {
      return null;
    }
    List<Integer> levels = new ArrayList<>();
    for (ComponentInfo f : oldest.sequences()) {
      int at = -1;
      for (int j = 0; j < level1.size(); j++) {
        byte[] from = j == 0 ? null : boundary(tree, level1.get(j - 1), level1.get(j), 1 == n);
        byte[] to = j + 1 < level1.size()
            ? boundary(tree, level1.get(j), level1.get(j + 1), 1 == n) : null;
        boolean startsIn = from == null || Arrays.compareUnsigned(f.minKey(), from) >= 0;
        boolean endsIn = to == null || Arrays.compareUnsigned(f.maxKey(), to) < 0;
        if (startsIn && endsIn) {
          at = j;
          break;
        }
      }
      if (at < 0) {
        return null;
      }
      TreeLayout.Node c = level1.get(at);
      if (rule.decide(tree, c, n, full(c)) != ChildRule.Action.APPEND) {
        return null;
      }
      levels.add(TreeLayout.code(1, c.topSlot() + 1));
    }
    return new Step("append", oldest.sequences(), null, levels);
  }

  /** The node flush of {@code p} (also a combine): a move, a routed merge, or null if blocked. */
  private Step flush(TreeLayout tree, TreeLayout.Node p, int n, String kind) {
    int i = p.level();
    if (p.sequences().isEmpty()) {
      return new Step(kind, List.of(), null, null, p); // an empty node: forgetting it is all
    }
    List<TreeLayout.Node> children = tree.overlapping(i + 1, p.minKey(), p.maxKey());
    if (children.isEmpty()) {
      if (p.sequenceCount() > rule.sequenceLimit(tree, i + 1, n)) {
        return mergedDown(p.sequences(), i + 1, p);
      }
      List<Integer> levels = new ArrayList<>();
      for (int s : p.slots()) {
        levels.add(TreeLayout.code(i + 1, s));
      }
      return new Step("move", p.sequences(), null, levels, p);
    }
    if (i + 1 < n && anyFull(children)) {
      return null; // the full child goes first
    }
    Step s = route(tree, p.sequences(), children, n, kind);
    return new Step(kind, s.inputs(), s.routes(), null, p);
  }

  /**
   * Sequences that have no child below them but more than {@code level} may hold (IAM's levels
   * from the mixed level down): merged into one new node of {@code level} instead of moved. The
   * node leaves its level as by a move; its anti-matter stays, as a deeper level may still hold
   * older versions of its keys.
   */
  private static Step mergedDown(List<ComponentInfo> inputs, int level, TreeLayout.Node node) {
    return new Step("move", inputs, List.of(new MergeRequest.Route(new byte[0],
        TreeLayout.code(level, 0), Long.MAX_VALUE, false)), null, node);
  }

  private boolean anyFull(List<TreeLayout.Node> nodes) {
    for (TreeLayout.Node c : nodes) {
      if (full(c)) {
        return true;
      }
    }
    return false;
  }

  /** A routed merge of {@code parent} into {@code children} (key order). */
  private Step route(TreeLayout tree, List<ComponentInfo> parent,
      List<TreeLayout.Node> children, int n, String kind) {
    List<ComponentInfo> inputs = new ArrayList<>(parent);
    List<MergeRequest.Route> routes = new ArrayList<>();
    for (int j = 0; j < children.size(); j++) {
      TreeLayout.Node c = children.get(j);
      boolean leaf = c.level() == n;
      ChildRule.Action a = rule.decide(tree, c, n, full(c));
      byte[] from = j == 0 ? new byte[0] : boundary(tree, children.get(j - 1), c, leaf);
      if (a == ChildRule.Action.MERGE) {
        inputs.addAll(c.sequences());
        // Only a full leaf child is re-cut into new nodes of C_t/((t+1)/2) (section 4.2.1,
        // Fig. 4); any other merged child becomes one single-sequence node (sections 5.1.1 and
        // 5.1.2, Fig. 5). Only a merged leaf child holds the oldest data of its keys: its
        // anti-matter may go.
        routes.add(new MergeRequest.Route(from, TreeLayout.code(c.level(), 0),
            leaf && full(c) ? leafNodeBytes : Long.MAX_VALUE, leaf));
      } else {
        routes.add(new MergeRequest.Route(from, TreeLayout.code(c.level(), c.topSlot() + 1),
            Long.MAX_VALUE, false));
      }
    }
    return new Step(kind, inputs, routes, null);
  }

  /** Split of {@code p} into two nodes with half of its children each. */
  private Step split(TreeLayout.Node p, List<TreeLayout.Node> children) {
    byte[] cut = children.get(children.size() / 2).minKey();
    int level = TreeLayout.code(p.level(), 0);
    return new Step("split", p.sequences(), List.of(
        new MergeRequest.Route(new byte[0], level, Long.MAX_VALUE, false),
        new MergeRequest.Route(cut, level, Long.MAX_VALUE, false)), null, p);
  }

  /**
   * The first key routed to {@code right} rather than {@code left} (adjacent children): leaf
   * children split the gap at the midpoint of its ends' first eight bytes; internal children
   * give the whole gap to the one with fewer children.
   */
  private byte[] boundary(TreeLayout tree, TreeLayout.Node left, TreeLayout.Node right,
      boolean leaf) {
    byte[] afterLeft = Arrays.copyOf(left.maxKey(), left.maxKey().length + 1); // next key
    if (leaf) {
      byte[] mid = midpoint(left.maxKey(), right.minKey());
      if (Arrays.compareUnsigned(mid, left.maxKey()) > 0
          && Arrays.compareUnsigned(mid, right.minKey()) <= 0) {
        return mid;
      }
      return right.minKey();
    }
    int leftChildren = tree.overlapping(left.level() + 1, left.minKey(), left.maxKey()).size();
    int rightChildren = tree.overlapping(right.level() + 1, right.minKey(), right.maxKey()).size();
    return leftChildren <= rightChildren ? right.minKey() : afterLeft;
  }

  /** The midpoint of two keys' first eight bytes (unsigned, big-endian), as eight bytes. */
  static byte[] midpoint(byte[] a, byte[] b) {
    long x = prefix(a);
    long y = prefix(b);
    long mid = (x >>> 1) + (y >>> 1) + (x & y & 1);
    byte[] out = new byte[8];
    for (int i = 7; i >= 0; i--) {
      out[i] = (byte) mid;
      mid >>>= 8;
    }
    return out;
  }

  private static long prefix(byte[] k) {
    return TreeLayout.prefix(k);
  }

  static long pow(int t, int i) {
    long p = 1;
    for (int j = 0; j < i && p < Long.MAX_VALUE / t; j++) {
      p *= t;
    }
    return p;
  }
}
