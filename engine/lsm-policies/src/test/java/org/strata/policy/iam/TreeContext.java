package org.strata.policy.iam;

import java.util.ArrayList;
import java.util.List;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;
import org.strata.lsm.testing.PolicyTestHost;

/**
 * A run list laid out as an LSA/IAM tree for policy tests, on the shared test host: moves are
 * applied to the list (as the engine does), routed merges are recorded and left scheduled.
 */
final class TreeContext extends PolicyTestHost {
  private int nextFile = 1;

  TreeContext() {
    super(Capability.KEY_RANGES, Capability.ROUTED_MERGES);
  }

  /** Adds a sequence of {@code bytes} over keys lo..hi to tree level {@code level}, slot. */
  ComponentInfo seq(int level, int slot, int lo, int hi, long bytes) {
    ComponentInfo c = new ComponentInfo("f" + nextFile++, 1, 1, bytes, bytes / 100, 1, key(lo),
        key(hi));
    int code = level == 0 ? 0 : TreeLayout.code(level, slot);
    List<RunInfo> runs = new ArrayList<>(runList().runs());
    RunInfo existing = null;
    for (RunInfo r : runs) {
      if (r.level() == code && code != 0) {
        existing = r;
      }
    }
    if (existing != null) {
      List<ComponentInfo> cs = new ArrayList<>(existing.components());
      cs.add(c);
      cs.sort((a, b) -> java.util.Arrays.compareUnsigned(a.minKey(), b.minKey()));
      runs.set(runs.indexOf(existing), new RunInfo(existing.runId(), code, cs, false));
    } else {
      int at = runs.size();
      for (int i = 0; i < runs.size(); i++) {
        if (runs.get(i).level() > code) {
          at = i;
          break;
        }
      }
      if (code == 0) {
        at = 0; // a flush is the newest run
      }
      runs.add(at, new RunInfo(newRunId(), code, List.of(c), false));
    }
    runList(RunList.of(runs));
    return c;
  }

  TreeLayout tree() {
    return TreeLayout.of(runList().runs());
  }

  /** The routed merges the policy asked for and the host accepted, in order. */
  List<MergeRequest.Routed> merges() {
    return requests().stream().filter(r -> r instanceof MergeRequest.Routed)
        .map(r -> (MergeRequest.Routed) r).toList();
  }

  /** The moves the host did, in order. */
  List<MergeRequest.Move> moves() {
    return requests().stream().filter(r -> r instanceof MergeRequest.Move)
        .map(r -> (MergeRequest.Move) r).toList();
  }

  @Override
  public boolean start(MergeRequest request) {
    if (request instanceof MergeRequest.Runs) {
      throw new AssertionError("the LSA/IAM policy merges no whole runs");
    }
    return super.start(request);
  }
}
