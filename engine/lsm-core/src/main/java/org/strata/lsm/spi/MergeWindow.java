package org.strata.lsm.spi;

import java.util.ArrayList;
import java.util.List;

/**
 * The runs a merge request reads: {@link RunList#window}'s answer.
 *
 * @param runs the input runs, newest first; for a partitioned merge each holds only the chosen
 *     components, in key order
 * @param includesOldest whether no run older than the inputs exists, so the merge sees the
 *     oldest data of its key range and may drop anti-matter
 */
public record MergeWindow(List<RunInfo> runs, boolean includesOldest) {
  public MergeWindow {
    runs = List.copyOf(runs);
  }

  /** Every input component, run by run, newest run first. */
  public List<ComponentInfo> components() {
    List<ComponentInfo> out = new ArrayList<>();
    for (RunInfo r : runs) {
      out.addAll(r.components());
    }
    return out;
  }
}
