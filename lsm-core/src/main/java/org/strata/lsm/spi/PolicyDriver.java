package org.strata.lsm.spi;

import java.util.function.BooleanSupplier;

/**
 * How every context calls its merge policy after a disk component was added: {@link
 * MergePolicy#diskComponentAdded} once, and again while the context reports that the last call
 * changed the run list at once (a simulator's instant merges, the Hyracks adapter's level moves,
 * the discrete-event simulator's initial load), so the policy sees the list its merges produced.
 * Where merges run in the background (the engine) the policy is called once; it is called again
 * when a merge completes.
 */
public final class PolicyDriver {
  /** Calls after one added component beyond which a policy is taken to be looping. */
  public static final int MAX_CALLS = 1000;

  private final String policyName;
  private final MergePolicy policy;

  /**
   * @param policyName how errors name the policy, e.g. {@code binomial}
   * @param policy the policy of one index
   */
  public PolicyDriver(String policyName, MergePolicy policy) {
    this.policyName = policyName;
    this.policy = policy;
  }

  /** The policy this driver calls. */
  public MergePolicy policy() {
    return policy;
  }

  /** Calls the policy once: for contexts whose merges all complete in the background. */
  public void diskComponentAdded(MergeContext context, boolean fullMergeRequested) {
    diskComponentAdded(context, fullMergeRequested, () -> false);
  }

  /**
   * Calls the policy, then again as long as {@code changedAtOnce} answers true.
   *
   * @param changedAtOnce asked after every call: whether that call changed the run list before it
   *     returned (the context clears what it reports)
   * @throws IllegalStateException naming the policy if it is still changing the run list after
   *     {@value #MAX_CALLS} calls
   */
  public void diskComponentAdded(MergeContext context, boolean fullMergeRequested,
      BooleanSupplier changedAtOnce) {
    int calls = 0;
    do {
      if (++calls > MAX_CALLS) {
        throw new IllegalStateException("merge-policy '" + policyName
            + "' kept changing the run list: " + MAX_CALLS + " calls after one added component,"
            + " each of which merged or moved runs at once");
      }
      policy.diskComponentAdded(context, fullMergeRequested);
    } while (changedAtOnce.getAsBoolean());
  }

  @Override
  public String toString() {
    return "PolicyDriver[" + policyName + "]";
  }
}
