package org.strata.policy.iam;

import java.util.Map;
import java.util.Set;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.Parameters;

/**
 * {@code iam}: the IAM-tree, an {@link AppendMergeTreePolicy} with an {@link IamRule}. The
 * parameters of {@code lsa}, and either {@code mixed-level} (m, 1 or more) with {@code
 * max-sequences} (k, 2 by default), or {@code mixed-level=auto} (the default) with {@code
 * cache-size} (M, required) and {@code cache-share} (the part of M appended data may use, 1.0; the
 * paper's M/2 is 0.5).
 */
public final class IamPolicyFactory extends LsaPolicyFactory {
  @Override
  public String name() {
    return "iam";
  }

  @Override
  public Set<String> parameterNames() {
    return with("mixed-level", "max-sequences", "cache-size", "cache-share");
  }

  @Override
  public MergePolicy create(Map<String, String> parameters) {
    Parameters p = Parameters.of(owner(), parameters, parameterNames());
    Common c = common(parameters, p);
    String m = parameters.getOrDefault("mixed-level", "auto").trim();
    IamRule rule;
    if (m.equals("auto")) {
      for (String fixedOnly : new String[] {"max-sequences"}) {
        if (parameters.containsKey(fixedOnly)) {
          throw new InvalidConfigurationException(owner() + ": parameter " + fixedOnly
              + " needs a fixed mixed-level (1 or more); with mixed-level=auto k is chosen"
              + " from cache-size");
        }
      }
      String cache = parameters.get("cache-size");
      if (cache == null) {
        throw new InvalidConfigurationException(owner() + ": mixed-level=auto needs cache-size,"
            + " the memory that caches data (M), e.g. cache-size=512MB; or set mixed-level"
            + " and max-sequences");
      }
      long bytes = ByteSize.parse(owner() + " parameter cache-size", cache).bytes();
      double share = p.doubleValue("cache-share", 1.0, 0.01, 1.0);
      rule = IamRule.automatic(bytes * share, c.t());
    } else {
      for (String autoOnly : new String[] {"cache-size", "cache-share"}) {
        if (parameters.containsKey(autoOnly)) {
          throw new InvalidConfigurationException(owner() + ": parameter " + autoOnly
              + " is used only with mixed-level=auto, not with mixed-level=" + m);
        }
      }
      int mixed;
      try {
        mixed = Integer.parseInt(m);
      } catch (NumberFormatException e) {
        mixed = 0;
      }
      if (mixed < 1 || mixed > 64) {
        throw InvalidConfigurationException.of(owner() + " parameter mixed-level", m,
            "auto, or a level from 1 to 64");
      }
      rule = IamRule.fixed(mixed, p.intValue("max-sequences", 2, 1, TreeLayout.SLOTS - 1));
    }
    return new AppendMergeTreePolicy(c.t(), c.nodeBytes(), c.fullPercent(), c.l0Stop(), rule);
  }
}
