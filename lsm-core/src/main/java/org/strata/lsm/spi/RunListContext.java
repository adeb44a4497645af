package org.strata.lsm.spi;

import java.util.List;
import java.util.Set;

/**
 * A {@link MergeContext} over a {@link RunList}, for contexts called from one thread at a time (the
 * simulators, the Hyracks adapter): it shows the list to the policy, turns what the policy asks
 * for into a {@link MergeRequest}, refuses what {@link RunList#check} refuses (and counts it) and
 * hands the rest to {@link #start}, the one thing a subclass decides. A subclass whose merges
 * change the list before {@link #start} returns calls {@link #changedAtOnce()}, so that a {@link
 * PolicyDriver} asks the policy again.
 */
public abstract class RunListContext implements MergeContext {
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
  protected abstract boolean start(MergeRequest request, RunList.Window window);

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

  @Override
  public final boolean scheduleMerge(List<RunInfo> runs, int outputLevel, long targetFileSize) {
    return schedule(MergeRequest.ofRuns(runs, outputLevel, targetFileSize));
  }

  /** Refused, as by default, unless the host offers {@link Capability#PARTITIONED_RUNS}. */
  @Override
  public boolean scheduleComponentMerge(List<ComponentInfo> components, int outputLevel,
      long targetFileSize) {
    if (!host.offered().contains(Capability.PARTITIONED_RUNS)) {
      return MergeContext.super.scheduleComponentMerge(components, outputLevel, targetFileSize);
    }
    return schedule(MergeRequest.ofComponents(components, outputLevel, targetFileSize));
  }

  private boolean schedule(MergeRequest request) {
    if (runList.check(request).isPresent()) {
      rejectedMerges++;
      return false;
    }
    return start(request, runList.window(request));
  }
}
