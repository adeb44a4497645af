package org.strata.lsm.spi;

import java.util.List;

/**
 * The one loop through which every context asks its merge policy for merges and applies them
 * (the engine, both simulators, the Hyracks adapter and the policy tests): it calls {@link
 * MergePolicy#findMerges}, offers each returned request to the context's {@link Host} in order,
 * tells the policy of each one started ({@link MergePolicy#mergeStarted}), and asks again while
 * the host reports that what it applied changed the run list at once (a move, a simulator's
 * instant merge, the Hyracks adapter's level moves), so the policy sees the list its requests
 * produced. Where merges run in the background (the engine) the policy is asked again when a
 * merge completes.
 */
public final class PolicyDriver {
  /** Calls after one added component beyond which a policy is taken to be looping. */
  public static final int MAX_CALLS = 10_000;

  /** Where the requests of a policy go: the context that checks and starts them. */
  public interface Host {
    /**
     * Checks {@code request} against the run list as it is now ({@link RunList#check}) and starts
     * it (a move: does it), or refuses it.
     *
     * @return true if started (or done); false if refused: its runs or files are gone, merging or
     *     not contiguous, or the host is closing
     * @throws UnsupportedOperationException for a kind of request the host does not model (a
     *     policy that declares its capabilities never meets one)
     */
    boolean start(MergeRequest request);

    /**
     * Whether what {@link #start} applied since the last question changed the run list at once,
     * and clears it; false by default (merges that complete in the background).
     */
    default boolean takeChangedAtOnce() {
      return false;
    }
  }

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

  /**
   * Asks the policy for merges after a disk component was added (or a full merge was asked for),
   * starts what it returns, and asks again as long as the host reports a change at once.
   *
   * @param view what the policy sees of the index
   * @param fullMergeRequested true when a user asked to merge everything
   * @param host where the requests go
   * @return the requests the host started, in order
   * @throws IllegalStateException naming the policy if it returns null, or is still changing the
   *     run list after {@value #MAX_CALLS} calls
   */
  public List<MergeRequest> diskComponentAdded(MergeContext view, boolean fullMergeRequested,
      Host host) {
    List<MergeRequest> started = new java.util.ArrayList<>();
    int calls = 0;
    do {
      if (++calls > MAX_CALLS) {
        throw new IllegalStateException("merge-policy '" + policyName
            + "' kept changing the run list: " + MAX_CALLS + " calls after one added component,"
            + " each of which merged or moved runs at once");
      }
      List<MergeRequest> requests = policy.findMerges(view, fullMergeRequested);
      if (requests == null) {
        throw new IllegalStateException("merge-policy '" + policyName + "' returned null from"
            + " findMerges; return an empty list for no merge");
      }
      for (MergeRequest r : requests) {
        if (host.start(r)) {
          started.add(r);
          policy.mergeStarted(r);
        }
      }
    } while (host.takeChangedAtOnce());
    return started;
  }

  @Override
  public String toString() {
    return "PolicyDriver[" + policyName + "]";
  }
}
