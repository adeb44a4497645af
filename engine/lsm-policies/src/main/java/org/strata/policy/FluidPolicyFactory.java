package org.strata.policy;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/**
 * The factories of the full-merge level policies, {@link FluidMergePolicy} unless noted: {@code
 * leveling} (parameters {@code size-ratio}, default 10, {@code dynamic-level-size} and {@code
 * pairwise}; K = Z = 1, or Luo & Carey's {@link PairwiseLevelingPolicy} with {@code
 * pairwise=true}), {@code tiering} ({@code size-ratio}, default 3, and {@code
 * dynamic-level-size}; K = Z = T−1), {@code lazy-leveling} ({@code size-ratio}, default 10; K =
 * T−1, Z = 1) and {@code fluid} ({@code size-ratio} default 10, {@code K} and {@code Z} default 1).
 *
 * <p>Every one also takes {@code preemptive} (default true: a push into a full level carries that
 * level along, Dostoevsky's preemptive merging; false: the push forms a new run there and the full
 * level is pushed down by a merge of its own; a push still carries the arrival that filled the
 * level, so merges take two to five runs) and {@code
 * max-components} (default 0: the global component constraint is twice the expected count; a
 * positive value sets it, e.g. 48 for the paper's tiering T=3). {@code leveling} and {@code
 * tiering} also take {@code constraint-counts}: {@code strata} (default; the component constraints
 * count runs as these policies hold them: 2·(T−1) per tiering level, and pairwise leveling's
 * flushed level has two of its own) or {@code luo-carey} (Luo & Carey's counts: 2·T per tiering
 * level and 2·T·L in all; pairwise leveling's flushed runs count toward level 1, 2·L in all).
 */
public abstract class FluidPolicyFactory implements MergePolicyFactory {
  private final String name;
  private final int defaultRatio;

  FluidPolicyFactory(String name, int defaultRatio) {
    this.name = name;
    this.defaultRatio = defaultRatio;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public Set<String> parameterNames() {
    return Set.of("size-ratio", "preemptive", "max-components");
  }

  /** The common parameter names plus {@code extra}. */
  static Set<String> with(String... extra) {
    Set<String> all = new java.util.TreeSet<>(Set.of("size-ratio", "preemptive", "max-components"));
    all.addAll(Set.of(extra));
    return Set.copyOf(all);
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of("merge-policy '" + name + "'", parameters, parameterNames());
    int t = p.intValue("size-ratio", defaultRatio, 2, 1000);
    return create(p, t);
  }

  abstract MergePolicy create(Parameters p, int t);

  /** Whether {@code constraint-counts} asks for Luo & Carey's counts (refuses other values). */
  static boolean luoCareyCounts(Parameters p) {
    return p.choice("constraint-counts", "strata", Set.of("strata", "luo-carey"))
        .equals("luo-carey");
  }

  /** A Fluid policy with the common parameters read from {@code p}. */
  static MergePolicy fluid(Parameters p, int t, int k, int z, boolean dynamicLevelSize) {
    return new FluidMergePolicy(t, k, z, dynamicLevelSize, p.booleanValue("preemptive", true),
        p.intValue("max-components", 0, 0, 1_000_000));
  }

  /**
   * {@code leveling}: parameters {@code size-ratio}, {@code dynamic-level-size} (false) and {@code
   * pairwise} (false). With {@code pairwise=true} the policy is Luo & Carey's leveling ({@link
   * PairwiseLevelingPolicy}): every merge takes one component of a level into the next level's
   * one component, a full level is merged down on its own at once, and each level has at most one
   * merge leaving it. Pairwise merges never carry a level along, so {@code preemptive=true} is
   * refused with it.
   */
  public static final class Leveling extends FluidPolicyFactory {
    public Leveling() {
      super("leveling", 10);
    }

    @Override
    public Set<String> parameterNames() {
      return with("dynamic-level-size", "pairwise", "constraint-counts");
    }

    @Override
    MergePolicy create(Parameters p, int t) {
      boolean dynamic = p.booleanValue("dynamic-level-size", false);
      if (p.booleanValue("pairwise", false)) {
        if (p.booleanValue("preemptive", false)) {
          throw InvalidConfigurationException.of("merge-policy 'leveling' parameter preemptive",
              "true", "false or absent with pairwise=true (pairwise merges never carry a full"
                  + " level along)");
        }
        return new PairwiseLevelingPolicy(t, dynamic, p.intValue("max-components", 0, 0,
            1_000_000), luoCareyCounts(p));
      }
      return new FluidMergePolicy(t, 1, 1, dynamic, p.booleanValue("preemptive", true),
          p.intValue("max-components", 0, 0, 1_000_000), luoCareyCounts(p));
    }
  }

  /** {@code tiering}: parameters {@code size-ratio} and {@code dynamic-level-size} (false). */
  public static final class Tiering extends FluidPolicyFactory {
    public Tiering() {
      super("tiering", 3);
    }

    @Override
    public Set<String> parameterNames() {
      return with("dynamic-level-size", "constraint-counts");
    }

    @Override
    MergePolicy create(Parameters p, int t) {
      return new FluidMergePolicy(t, t - 1, t - 1, p.booleanValue("dynamic-level-size", false),
          p.booleanValue("preemptive", true), p.intValue("max-components", 0, 0, 1_000_000),
          luoCareyCounts(p));
    }
  }

  /** {@code lazy-leveling}. */
  public static final class LazyLeveling extends FluidPolicyFactory {
    public LazyLeveling() {
      super("lazy-leveling", 10);
    }

    @Override
    MergePolicy create(Parameters p, int t) {
      return fluid(p, t, t - 1, 1, false);
    }
  }

  /** {@code fluid}: parameters {@code size-ratio}, {@code K}, {@code Z}. */
  public static final class Fluid extends FluidPolicyFactory {
    public Fluid() {
      super("fluid", 10);
    }

    @Override
    public Set<String> parameterNames() {
      return with("K", "Z");
    }

    @Override
    MergePolicy create(Parameters p, int t) {
      return fluid(p, t, p.intValue("K", 1, 1, t - 1), p.intValue("Z", 1, 1, t - 1), false);
    }
  }
}
