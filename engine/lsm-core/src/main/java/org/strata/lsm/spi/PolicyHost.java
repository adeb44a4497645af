package org.strata.lsm.spi;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.spi.MergeContext.Capability;

/**
 * A kind of {@link MergeContext} that runs merge policies (the engine, a simulator, the Hyracks
 * adapter): what it offers and what to tell a user whose policy needs more. Contexts check a
 * policy's {@linkplain MergePolicyFactory#requiredCapabilities() needs} against it when they are
 * created, so a policy never meets a context that lacks what it relies on.
 *
 * @param name how messages name the context, e.g. {@code the merge-policy simulator}
 * @param offered the capabilities every context of this kind offers
 * @param advice what to do instead when a policy needs more, e.g. {@code run it on the engine}
 */
public record PolicyHost(String name, Set<Capability> offered, String advice) {
  /** The engine (lsm-core): it offers every capability. */
  public static final PolicyHost ENGINE = new PolicyHost("the engine",
      EnumSet.allOf(Capability.class), "");

  public PolicyHost {
    offered = Set.copyOf(offered);
  }

  /**
   * Refuses a policy that needs a capability this kind of context lacks.
   *
   * @throws InvalidConfigurationException naming the policy, what it needs, what is missing and
   *     the advice
   */
  public void check(MergePolicyFactory policy) {
    Set<Capability> needed = policy.requiredCapabilities();
    List<String> missing = new ArrayList<>();
    for (Capability c : EnumSet.allOf(Capability.class)) {
      if (needed.contains(c) && !offered.contains(c)) {
        missing.add(c.description());
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    List<String> all = new ArrayList<>();
    for (Capability c : EnumSet.allOf(Capability.class)) {
      if (needed.contains(c)) {
        all.add(c.description());
      }
    }
    throw new InvalidConfigurationException("merge-policy '" + policy.name() + "' cannot run on "
        + name + ": it needs " + join(all)
        + (missing.size() == all.size() ? ", which " : ", of which " + join(missing) + " ")
        + (missing.size() == 1 ? "is" : "are") + " not modelled there"
        + (advice.isEmpty() ? "" : "; " + advice));
  }

  /**
   * Refuses a request of a kind this kind of context does not model: a partitioned merge without
   * {@link Capability#PARTITIONED_RUNS}, a routed merge or a move without {@link
   * Capability#ROUTED_MERGES}. A policy that declares its capabilities never meets the refusal.
   *
   * @throws UnsupportedOperationException naming the capability the policy should declare
   */
  public void requireModelled(MergeRequest request) {
    Capability needed = request instanceof MergeRequest.Components
        ? Capability.PARTITIONED_RUNS
        : request instanceof MergeRequest.Routed || request instanceof MergeRequest.Move
            ? Capability.ROUTED_MERGES : null;
    if (needed != null && !offered.contains(needed)) {
      throw new UnsupportedOperationException(name + " does not offer " + needed.description()
          + "; a policy that returns a " + request.getClass().getSimpleName() + " request"
          + " declares " + needed + " in its factory's requiredCapabilities()");
    }
  }

  private static String join(List<String> items) {
    if (items.size() == 1) {
      return items.get(0);
    }
    return String.join(", ", items.subList(0, items.size() - 1)) + " and "
        + items.get(items.size() - 1);
  }
}
