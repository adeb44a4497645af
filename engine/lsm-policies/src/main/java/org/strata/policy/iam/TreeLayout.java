package org.strata.policy.iam;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.RunInfo;

/**
 * How an LSA- or IAM-tree lies in a run list, and the tree read back from one.
 *
 * <p>Each sequence of a node is one disk component. Tree level {@code i} (1..) and sequence slot
 * {@code s} (0 = the oldest sequence of a node) map to the run of level {@link #code code(i, s)}
 * {@code = i*SLOTS + SLOTS−1−s}: runs are ordered by level number, newest first, so within a tree
 * level a node's newer sequences (higher slots) are read before its older ones, and a tree level
 * is read before the levels below it. Within one run the components belong to different nodes and
 * have disjoint key ranges, as runs require. Appending a sequence to a node adds a component to
 * the run of the slot above the node's highest; merging a node puts its one sequence in slot 0.
 * Flushed memory components form runs of level 0 (tree level 0, the memory component's node).
 *
 * <p>Nodes are not recorded anywhere: the nodes of a tree level are the groups of its components
 * whose key ranges overlap (transitively), a group without a sequence in slot 0 joining its
 * nearer neighbour (it is a part appended into the gap beside a node). A node's range is the
 * union of its sequences' ranges, so a node that has flushed all its data is gone rather than
 * kept empty with its range (see docs/policies.md).
 */
public final class TreeLayout {
  /** Sequence slots per tree level; a node holds at most this many sequences. */
  public static final int SLOTS = 64;

  private final List<List<Node>> levels; // index 0: tree level 0 (flushed runs)

  /**
   * One node: a key range and its sequences.
   *
   * @param level tree level
   * @param minKey smallest key of its sequences
   * @param maxKey largest key of its sequences
   * @param sequences its components, newest first
   * @param slots the slot of each sequence, same order (descending)
   */
  public record Node(int level, byte[] minKey, byte[] maxKey, List<ComponentInfo> sequences,
      List<Integer> slots) {
    /** Bytes of all sequences. */
    public long bytes() {
      long b = 0;
      for (ComponentInfo c : sequences) {
        b += c.sizeBytes();
      }
      return b;
    }

    /** The highest occupied slot; −1 for an empty node. */
    public int topSlot() {
      return slots.isEmpty() ? -1 : slots.get(0);
    }

    /**
     * Number of sequences: occupied slots (a part appended beside the node may share a slot with
     * another part of the same append).
     */
    public int sequenceCount() {
      return (int) slots.stream().distinct().count();
    }

    /** Whether its key range overlaps {@code [lo, hi]}. */
    public boolean overlaps(byte[] lo, byte[] hi) {
      return Arrays.compareUnsigned(minKey, hi) <= 0 && Arrays.compareUnsigned(lo, maxKey) <= 0;
    }
  }

  private TreeLayout(List<List<Node>> levels) {
    this.levels = levels;
  }

  /** The run level of tree level {@code level} (at least 1), slot {@code slot}. */
  public static int code(int level, int slot) {
    if (level < 1 || slot < 0 || slot >= SLOTS) {
      throw new IllegalArgumentException("no run level for tree level " + level + " slot "
          + slot);
    }
    return level * SLOTS + SLOTS - 1 - slot;
  }

  /** The tree level of a run level (0 for flushed runs). */
  public static int treeLevel(int code) {
    return code <= 0 ? 0 : code / SLOTS;
  }

  /** The slot of a run level above 0. */
  public static int slot(int code) {
    return SLOTS - 1 - code % SLOTS;
  }

  /** The tree the run list holds. Runs of level 0 form one node per run, newest first. */
  public static TreeLayout of(List<RunInfo> runs) {
    return of(runs, Map.of());
  }

  /**
   * The tree the run list holds, with the key ranges of nodes that flushed their data and are
   * kept (by the policy, in memory) as in the paper: a kept range that overlaps one node widens
   * it (unless it would then overlap a neighbour), one that overlaps none is an empty node, one
   * that overlaps several is passed over.
   *
   * @param kept per tree level, {@code {minKey, maxKey}} of kept node ranges
   */
  public static TreeLayout of(List<RunInfo> runs, Map<Integer, List<byte[][]>> kept) {
    TreeLayout t = files(runs);
    for (Map.Entry<Integer, List<byte[][]>> e : kept.entrySet()) {
      int level = e.getKey();
      if (level < 1) {
        continue;
      }
      while (t.levels.size() <= level) {
        t.levels.add(new ArrayList<>());
      }
      List<Node> nodes = new ArrayList<>(t.levels.get(level));
      for (byte[][] r : e.getValue()) {
        List<Integer> hit = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
          if (nodes.get(i).overlaps(r[0], r[1])) {
            hit.add(i);
          }
        }
        if (hit.size() > 1) {
          continue;
        }
        int at = 0;
        while (at < nodes.size() && Arrays.compareUnsigned(nodes.get(at).minKey(), r[0]) < 0) {
          at++;
        }
        Node wide;
        int replace = -1;
        if (hit.isEmpty()) {
          wide = new Node(level, r[0], r[1], List.of(), List.of());
        } else {
          replace = hit.get(0);
          Node n = nodes.get(replace);
          byte[] lo = Arrays.compareUnsigned(r[0], n.minKey()) < 0 ? r[0] : n.minKey();
          byte[] hi = Arrays.compareUnsigned(r[1], n.maxKey()) > 0 ? r[1] : n.maxKey();
          wide = new Node(level, lo, hi, n.sequences(), n.slots());
        }
        boolean clash = false;
        for (int i = 0; i < nodes.size(); i++) {
          if (i != replace && nodes.get(i).overlaps(wide.minKey(), wide.maxKey())) {
            clash = true;
          }
        }
        if (clash) {
          continue;
        }
        if (replace >= 0) {
          nodes.set(replace, wide);
        } else {
          nodes.add(at, wide);
        }
      }
      t.levels.set(level, nodes);
    }
    while (t.levels.size() > 1 && t.levels.get(t.levels.size() - 1).isEmpty()) {
      t.levels.remove(t.levels.size() - 1);
    }
    return t;
  }

  private static TreeLayout files(List<RunInfo> runs) {
    List<List<ComponentInfo>> byLevel = new ArrayList<>();
    List<List<Integer>> slotsByLevel = new ArrayList<>();
    List<Node> level0 = new ArrayList<>();
    for (RunInfo r : runs) {
      int tl = treeLevel(r.level());
      if (tl == 0) {
        level0.add(new Node(0, minOf(r.components()), maxOf(r.components()), r.components(),
            repeat(0, r.components().size())));
        continue;
      }
      while (byLevel.size() <= tl) {
        byLevel.add(new ArrayList<>());
        slotsByLevel.add(new ArrayList<>());
      }
      for (ComponentInfo c : r.components()) {
        byLevel.get(tl).add(c);
        slotsByLevel.get(tl).add(slot(r.level()));
      }
    }
    List<List<Node>> levels = new ArrayList<>();
    levels.add(new ArrayList<>(level0));
    for (int tl = 1; tl < byLevel.size(); tl++) {
      levels.add(new ArrayList<>(group(tl, byLevel.get(tl), slotsByLevel.get(tl))));
    }
    while (levels.size() > 1 && levels.get(levels.size() - 1).isEmpty()) {
      levels.remove(levels.size() - 1);
    }
    return new TreeLayout(levels);
  }

  /** The deepest tree level that holds a node (0 if none). */
  public int deepest() {
    return levels.size() - 1;
  }

  /** The nodes of a tree level in key order (level 0: one per flushed run, newest first). */
  public List<Node> nodes(int level) {
    return level < levels.size() ? levels.get(level) : List.of();
  }

  /** Bytes stored in a tree level. */
  public long levelBytes(int level) {
    long b = 0;
    for (Node n : nodes(level)) {
      b += n.bytes();
    }
    return b;
  }

  /** The nodes of {@code level} whose key range overlaps {@code [lo, hi]}, in key order. */
  public List<Node> overlapping(int level, byte[] lo, byte[] hi) {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes(level)) {
      if (n.overlaps(lo, hi)) {
        out.add(n);
      }
    }
    return out;
  }

  private static List<Node> group(int level, List<ComponentInfo> cs, List<Integer> slots) {
    Integer[] order = new Integer[cs.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(cs.get(a).minKey(), cs.get(b).minKey()));
    List<Node> nodes = new ArrayList<>();
    List<Integer> members = new ArrayList<>();
    byte[] hi = null;
    for (int idx : order) {
      ComponentInfo c = cs.get(idx);
      if (hi != null && Arrays.compareUnsigned(c.minKey(), hi) > 0) {
        nodes.add(node(level, members, cs, slots));
        members = new ArrayList<>();
        hi = null;
      }
      members.add(idx);
      if (hi == null || Arrays.compareUnsigned(c.maxKey(), hi) > 0) {
        hi = c.maxKey();
      }
    }
    if (!members.isEmpty()) {
      nodes.add(node(level, members, cs, slots));
    }
    return attachOrphans(level, nodes);
  }

  /**
   * Every real node holds a sequence in slot 0 (moves keep slots, merges and splits write slot 0,
   * appends go above the top slot). A group of files without one is a part appended to a node
   * whose range it extended into a gap without overlapping the node's files yet: it joins the
   * nearer neighbouring node (by the first eight key bytes).
   */
  private static List<Node> attachOrphans(int level, List<Node> groups) {
    List<Node> out = new ArrayList<>(groups);
    boolean changed = true;
    while (changed && out.size() > 1) {
      changed = false;
      for (int i = 0; i < out.size(); i++) {
        Node g = out.get(i);
        if (g.slots().contains(0)) {
          continue;
        }
        Node left = i > 0 ? out.get(i - 1) : null;
        Node right = i + 1 < out.size() ? out.get(i + 1) : null;
        boolean toLeft = right == null || left != null
            && Long.compareUnsigned(prefix(g.minKey()) - prefix(left.maxKey()),
                prefix(right.minKey()) - prefix(g.maxKey())) <= 0;
        int j = toLeft ? i - 1 : i + 1;
        out.set(Math.min(i, j), join(level, out.get(Math.min(i, j)), out.get(Math.max(i, j))));
        out.remove(Math.max(i, j));
        changed = true;
        break;
      }
    }
    return out;
  }

  private static Node join(int level, Node a, Node b) {
    List<ComponentInfo> cs = new ArrayList<>(a.sequences());
    cs.addAll(b.sequences());
    List<Integer> sl = new ArrayList<>(a.slots());
    sl.addAll(b.slots());
    List<Integer> members = new ArrayList<>();
    for (int i = 0; i < cs.size(); i++) {
      members.add(i);
    }
    return node(level, members, cs, sl);
  }

  /** The first eight bytes of a key as an unsigned big-endian number. */
  static long prefix(byte[] k) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (i < k.length ? (k[i] & 0xff) : 0);
    }
    return v;
  }

  private static Node node(int level, List<Integer> members, List<ComponentInfo> cs,
      List<Integer> slots) {
    members.sort((a, b) -> Integer.compare(slots.get(b), slots.get(a)));
    List<ComponentInfo> seqs = new ArrayList<>();
    List<Integer> sl = new ArrayList<>();
    for (int i : members) {
      seqs.add(cs.get(i));
      sl.add(slots.get(i));
    }
    return new Node(level, minOf(seqs), maxOf(seqs), List.copyOf(seqs), List.copyOf(sl));
  }

  private static byte[] minOf(List<ComponentInfo> cs) {
    byte[] m = null;
    for (ComponentInfo c : cs) {
      if (m == null || Arrays.compareUnsigned(c.minKey(), m) < 0) {
        m = c.minKey();
      }
    }
    return m;
  }

  private static byte[] maxOf(List<ComponentInfo> cs) {
    byte[] m = null;
    for (ComponentInfo c : cs) {
      if (m == null || Arrays.compareUnsigned(c.maxKey(), m) > 0) {
        m = c.maxKey();
      }
    }
    return m;
  }

  private static List<Integer> repeat(int v, int n) {
    List<Integer> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add(v);
    }
    return l;
  }
}
