package org.strata.policy.iam;

import java.util.ArrayList;
import java.util.List;

/**
 * IAM's rule (Gong et al., section 4.3): levels above the mixed level {@code m} append (LSA's
 * rule); a child in level {@code m} is merged when it already holds {@code k} sequences and gets
 * its part appended otherwise; a child below {@code m} is always merged. {@code m} and {@code k}
 * are fixed, or chosen by {@link ShapeSelector} from the level sizes and a cache size before every
 * decision.
 */
public final class IamRule implements ChildRule {
  private final int fixedM;
  private final int fixedK;
  private final double cacheBytes;
  private final int t;

  private IamRule(int fixedM, int fixedK, double cacheBytes, int t) {
    this.fixedM = fixedM;
    this.fixedK = fixedK;
    this.cacheBytes = cacheBytes;
    this.t = t;
  }

  /** A fixed mixed level {@code m} (at least 1) and sequence limit {@code k} (at least 1). */
  public static IamRule fixed(int m, int k) {
    if (m < 1 || k < 1) {
      throw new IllegalArgumentException("m and k must be at least 1, got m=" + m + " k=" + k);
    }
    return new IamRule(m, k, 0, 0);
  }

  /**
   * {@code (m, k)} chosen from the bytes of cache that may hold appended data (M, or M/2) with
   * fan-out {@code t}; {@code k} up to {@code t+1} as IamDB tries.
   */
  public static IamRule automatic(double cacheBytes, int t) {
    return new IamRule(0, 0, cacheBytes, t);
  }

  /** The shape in force for {@code tree} with leaf level {@code leafLevel}. */
  public ShapeSelector.Shape shape(TreeLayout tree, int leafLevel) {
    if (fixedM > 0) {
      return new ShapeSelector.Shape(fixedM, fixedK);
    }
    List<Double> d = new ArrayList<>();
    for (int j = 1; j <= leafLevel; j++) {
      d.add((double) tree.levelBytes(j));
    }
    return ShapeSelector.choose(d, cacheBytes, t, t + 1);
  }

  @Override
  public Action decide(TreeLayout tree, TreeLayout.Node child, int leafLevel, boolean full) {
    ShapeSelector.Shape s = shape(tree, leafLevel);
    int j = child.level();
    if (j < s.mixedLevel()) {
      return ChildRule.appendingLevel(child, leafLevel, full);
    }
    if (j > s.mixedLevel()) {
      return Action.MERGE;
    }
    if (child.sequenceCount() >= s.maxSequences()) {
      return Action.MERGE;
    }
    return ChildRule.appendingLevel(child, leafLevel, full);
  }

  @Override
  public int sequenceLimit(TreeLayout tree, int level, int leafLevel) {
    ShapeSelector.Shape s = shape(tree, leafLevel);
    if (level < s.mixedLevel()) {
      return TreeLayout.SLOTS;
    }
    return level == s.mixedLevel() ? s.maxSequences() : 1;
  }

  @Override
  public String describe(TreeLayout tree, int leafLevel) {
    ShapeSelector.Shape s = shape(tree, leafLevel);
    return "m=" + s.mixedLevel() + " k=" + s.maxSequences();
  }
}
