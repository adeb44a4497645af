package org.strata.policy.iam;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.RunInfo;
import org.strata.lsm.spi.RunList;

/**
 * A run list laid out as an LSA/IAM tree for policy tests: moves are applied to the list (as the
 * engine does), routed merges are recorded and left scheduled.
 */
final class TreeContext implements MergeContext {
  RunList list = RunList.EMPTY;
  final List<MergeRequest.Routed> merges = new ArrayList<>();
  final List<MergeRequest.Move> moves = new ArrayList<>();
  private long nextRun = 1;
  private int nextFile = 1;

  static byte[] key(int k) {
    return String.format("%06d", k).getBytes();
  }

  /** Adds a sequence of {@code bytes} over keys lo..hi to tree level {@code level}, slot. */
  ComponentInfo seq(int level, int slot, int lo, int hi, long bytes) {
    ComponentInfo c = new ComponentInfo("f" + nextFile++, 1, 1, bytes, bytes / 100, 1, key(lo),
        key(hi));
    int code = level == 0 ? 0 : TreeLayout.code(level, slot);
    MergeRequest.Move place = null;
    List<RunInfo> runs = new ArrayList<>(list.runs());
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
      runs.add(at, new RunInfo(nextRun++, code, List.of(c), false));
    }
    list = RunList.of(runs);
    return c;
  }

  TreeLayout tree() {
    return TreeLayout.of(list.runs());
  }

  @Override
  public List<RunInfo> runs() {
    return list.runs();
  }

  @Override
  public boolean scheduleMerge(List<RunInfo> runs, int outputLevel, long targetFileSize) {
    throw new AssertionError("the LSA/IAM policy merges no whole runs");
  }

  @Override
  public boolean scheduleRoutedMerge(List<ComponentInfo> components,
      List<MergeRequest.Route> routes) {
    List<String> names = new ArrayList<>();
    components.forEach(c -> names.add(c.name()));
    MergeRequest.Routed r = new MergeRequest.Routed(names, routes);
    if (list.check(r).isPresent()) {
      return false;
    }
    list = list.markMerging(r);
    merges.add(r);
    return true;
  }

  @Override
  public boolean moveComponents(List<ComponentInfo> components, List<Integer> toLevels) {
    List<String> names = new ArrayList<>();
    components.forEach(c -> names.add(c.name()));
    MergeRequest.Move m = new MergeRequest.Move(names, toLevels);
    if (list.check(m).isPresent()) {
      return false;
    }
    list = list.apply(m, List.of(), () -> nextRun++);
    moves.add(m);
    return true;
  }

  @Override
  public Set<Capability> capabilities() {
    return Set.of(Capability.KEY_RANGES, Capability.ROUTED_MERGES);
  }
}
