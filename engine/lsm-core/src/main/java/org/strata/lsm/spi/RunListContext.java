package org.strata.lsm.spi;

import java.util.List;
import java.util.Set;

/**
 * A {@link MergeContext} over a {@link RunList}, for contexts called from one thread at a time (the
 * simulators, the Hyracks adapter), and the {@link PolicyDriver.Host} of its policy's requests: it
 * shows the list to the policy, refuses what {@link RunList#check} refuses (and counts it) and
 * hands the rest to {@link #start(MergeRequest, MergeWindow)}, the one thing a subclass
 * decides. A subclass whose merges change the list before that returns calls {@link
 * #changedAtOnce()}, so that the {@link PolicyDriver} asks the policy again.
 */
public abstract class RunListContext implements MergeContext, PolicyDriver.Host {
  private final PolicyHost host;
  private RunList runList = RunList.EMPTY;
  private boolean changed;
  private long rejectedMerges;

  /** @param host what this kind of context offers */
  protected RunListContext(PolicyHost host) {
    this.host = host;
  }

  /**
   * Starts a merge that {@link RunList#check} accepted: applies it at once, marks its inputs
   * merging and hands it to a scheduler, or passes it on.
   *
   * @param window the runs it reads ({@link RunList#window})
   * @return whether the merge was started
   */
  protected abstract boolean start(MergeRequest request, MergeWindow window);

  /** The current run list. */
  protected final RunList runList() {
    return runList;
  }

  /** Replaces the run list (after a flush, a merge, or a fresh look at the index). */
  protected final void runList(RunList next) {
    runList = next;
  }

  /** Records that the policy call in progress changed the run list at once. */
  protected final void changedAtOnce() {
    changed = true;
  }

  /**
   * Whether the run list changed at once since the last call, and clears it: the question a
   * {@link PolicyDriver} asks after every policy call.
   */
  @Override
  public final boolean takeChangedAtOnce() {
    boolean c = changed;
    changed = false;
    return c;
  }

  /**
   * Merge requests refused because their runs were not contiguous, were merging, or no longer
   * existed (already merged) or were unknown. A correct policy makes none.
   */
  public final long rejectedMerges() {
    return rejectedMerges;
  }

  @Override
  public final List<RunInfo> runs() {
    return runList.runs();
  }

  @Override
  public final Set<Capability> capabilities() {
    return host.offered();
  }

  /**
   * Offers a request of the policy: refuses (and counts) what {@link RunList#check} refuses and
   * hands the rest to {@link #start(MergeRequest, MergeWindow)}.
   *
   * @throws UnsupportedOperationException for a kind of request this context does not model
   */
  @Override
  public final boolean start(MergeRequest request) {
    host.requireModelled(request);
    if (runList.check(request).isPresent()) {
      rejectedMerges++;
      return false;
    }
    return start(request, runList.window(request));
  }
}
