package org.strata.policy.iam;

/**
 * The one difference between LSA and IAM (Gong et al., section 4.3): whether a node flush appends
 * its part for a child as a new sequence or merges it with the child's sequences.
 */
public interface ChildRule {
  /** What a node flush does with one child. */
  enum Action {
    /** The child's part becomes the child's newest sequence; nothing of the child is rewritten. */
    APPEND,
    /** The child's sequences and its part are merged into one sequence (a full leaf re-cut). */
    MERGE
  }

  /**
   * The action for a child.
   *
   * @param tree the tree as it is now
   * @param child the child node
   * @param leafLevel {@code n}, the leaf level
   * @param full whether the child is full
   */
  Action decide(TreeLayout tree, TreeLayout.Node child, int leafLevel, boolean full);

  /** How logs and docs name the rule's current shape, e.g. {@code lsa} or {@code m=3 k=2}. */
  String describe(TreeLayout tree, int leafLevel);

  /**
   * The most sequences a node of {@code level} may hold: a node moved down to that level by a
   * metadata change keeps its sequences only within this bound, and is merged into one otherwise.
   */
  int sequenceLimit(TreeLayout tree, int level, int leafLevel);

  /**
   * LSA: always append, except that a full leaf child is merged (and re-cut into new leaf nodes),
   * and a child whose sequence slots are used up is merged.
   */
  ChildRule LSA = new ChildRule() {
    @Override
    public Action decide(TreeLayout tree, TreeLayout.Node child, int leafLevel, boolean full) {
      return appendingLevel(child, leafLevel, full);
    }

    @Override
    public String describe(TreeLayout tree, int leafLevel) {
      return "lsa";
    }

    @Override
    public int sequenceLimit(TreeLayout tree, int level, int leafLevel) {
      return TreeLayout.SLOTS;
    }
  };

  /** The rule of an appending level (LSA's rule). */
  static Action appendingLevel(TreeLayout.Node child, int leafLevel, boolean full) {
    if ((child.level() == leafLevel && full) || child.topSlot() + 1 >= TreeLayout.SLOTS) {
      return Action.MERGE;
    }
    return Action.APPEND;
  }
}
