package org.strata.policy.iam;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergePolicyFactory;
import org.strata.lsm.spi.Parameters;

/**
 * {@code lsa}: the LSA-tree, an {@link AppendMergeTreePolicy} with {@link ChildRule#LSA}.
 * Parameters {@code fanout} (t, 10), {@code node-size} (C_t, 64MB: set it to the memory component
 * size), {@code full-percent} (95) and {@code l0-stop} (8).
 */
public class LsaPolicyFactory implements MergePolicyFactory {
  /** The parameters shared with {@code iam}. */
  static final Set<String> COMMON = Set.of("fanout", "node-size", "full-percent", "l0-stop");

  @Override
  public String name() {
    return "lsa";
  }

  @Override
  public Set<String> parameterNames() {
    return COMMON;
  }

  /** Key ranges (it groups files into nodes), routed merges and moves. */
  @Override
  public Set<MergeContext.Capability> requiredCapabilities() {
    return Set.of(MergeContext.Capability.KEY_RANGES, MergeContext.Capability.ROUTED_MERGES);
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of(owner(), parameters, parameterNames());
    Common c = common(parameters, p);
    return new AppendMergeTreePolicy(c.t(), c.nodeBytes(), c.fullPercent(), c.l0Stop(),
        ChildRule.LSA);
  }

  /** The parsed common parameters. */
  record Common(int t, long nodeBytes, int fullPercent, int l0Stop) {}

  final String owner() {
    return "merge-policy '" + name() + "'";
  }

  final Common common(Map<String, String> parameters, Parameters p) {
    int t = p.intValue("fanout", 10, 2, 100);
    long node = ByteSize.parse(owner() + " parameter node-size",
        parameters.getOrDefault("node-size", "64MB")).bytes();
    if (node < 4096) {
      throw InvalidConfigurationException.of(owner() + " parameter node-size", node,
          "a size of at least 4KB such as 64MB");
    }
    return new Common(t, node, p.intValue("full-percent", 95, 1, 100),
        p.intValue("l0-stop", 8, 1, TreeLayout.SLOTS));
  }

  /** {@code COMMON} plus {@code more}. */
  static Set<String> with(String... more) {
    Set<String> s = new HashSet<>(COMMON);
    s.addAll(Set.of(more));
    return Set.copyOf(s);
  }
}
