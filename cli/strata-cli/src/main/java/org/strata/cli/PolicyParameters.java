package org.strata.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --param} values of a command that compares several policies ({@code simulate}, {@code
 * des}): {@code KEY=VALUE} applies to every policy, {@code POLICY:KEY=VALUE} to the one named.
 */
final class PolicyParameters {
  private PolicyParameters() {}

  /**
   * Each policy's parameters, in the order of {@code policies}; a {@code POLICY:} prefix that is
   * not among them, or a policy named twice, is an {@link IllegalArgumentException} (a usage
   * error) that says so.
   */
  static Map<String, Map<String, String>> byPolicy(List<String> policies,
      Map<String, String> params) {
    if (policies.stream().distinct().count() != policies.size()) {
      throw new IllegalArgumentException("--policy names a policy twice: "
          + String.join(",", policies));
    }
    Map<String, Map<String, String>> m = new LinkedHashMap<>();
    policies.forEach(p -> m.put(p, new LinkedHashMap<>()));
    params.forEach((k, v) -> {
      int colon = k.indexOf(':');
      if (colon < 0) {
        m.values().forEach(ps -> ps.put(k, v));
      } else {
        String policy = k.substring(0, colon);
        if (!m.containsKey(policy)) {
          throw new IllegalArgumentException("--param " + k + "=" + v + ": '" + policy
              + "' is not one of --policy " + String.join(",", policies));
        }
        m.get(policy).put(k.substring(colon + 1), v);
      }
    });
    return m;
  }
}
