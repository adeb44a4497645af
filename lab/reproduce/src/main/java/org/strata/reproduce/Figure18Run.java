package org.strata.reproduce;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.engine.Plugins;
import org.strata.lsm.spi.ComponentInfo;
import org.strata.lsm.spi.MergeContext;
import org.strata.lsm.spi.MergePolicy;
import org.strata.lsm.spi.MergeRequest;
import org.strata.lsm.spi.PolicyDriver;
import org.strata.lsm.spi.RunInfo;

/**
 * AC-S4: Strata's {@code size-tiered} policy (lsm-policies) on the example of Luo & Carey's Fig.
 * 18. The paper's text: with T = 1.2, min 2 and max 4 and no component merging, "the first
 * execution ... starts from the oldest component, labeled 100GB. However, no merge is scheduled
 * since this component is too large. It then examines the next component, labeled 10GB, and
 * schedules a merge operation for the 4 components labeled from 10GB to 5GB. The next execution
 * ... starts from the component labeled 1GB, and it schedules a merge for the 3 components labeled
 * from 128MB to 64MB." The policy is called twice on the same components, the second time with
 * the first merge's inputs marked merging (as the paper's second execution sees them).
 */
final class Figure18Run {
  /**
   * The paper's schedule, each merge as the labels of its oldest and its newest input: the 4
   * components from 10GB to 5GB, then the 3 from 128MB to 64MB.
   */
  static final List<List<String>> PAPER = List.of(List.of("10GB", "5GB"),
      List.of("128MB", "64MB"));

  private Figure18Run() {}

  /** A component's size, or the range of sizes it is run at (lo = hi for a labelled one). */
  record Range(long lo, long hi) {
    /** The sizes a range is run at: its ends and its middle (one size for a labelled one). */
    List<Long> points() {
      return lo == hi ? List.of(lo) : List.of(lo, lo + (hi - lo) / 2, hi);
    }
  }

  /** Parses {@code 10GB} or {@code 5GB..10GB}; a bad size fails naming it. */
  static Range range(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("luo-carey: figure18.components has an empty entry");
    }
    String[] parts = text.split("\\.\\.", -1);
    if (parts.length > 2) {
      throw new IllegalArgumentException("luo-carey: figure18.components entry '" + text
          + "' is neither a size (10GB) nor a range (5GB..10GB)");
    }
    long lo = size(parts[0].strip(), text);
    long hi = parts.length == 2 ? size(parts[1].strip(), text) : lo;
    if (lo < 1 || hi < lo) {
      throw new IllegalArgumentException("luo-carey: figure18.components entry '" + text
          + "' must be a positive size or a range from a smaller to a larger size");
    }
    return new Range(lo, hi);
  }

  private static long size(String s, String entry) {
    try {
      return ByteSize.parse("luo-carey figure18.components", s).bytes();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("luo-carey: figure18.components entry '" + entry
          + "' has a bad size '" + s + "': " + e.getMessage(), e);
    }
  }

  /**
   * One tree of the example and what the policy did with it.
   *
   * @param sizes component sizes, oldest first
   * @param merges the merges the two executions scheduled, each as the positions (oldest first,
   *     from 0) of its inputs in ascending order
   */
  record Case(List<Long> sizes, List<List<Integer>> merges) {}

  /** The paper's schedule as positions in {@code components}; fails if a label is missing. */
  static List<List<Integer>> expected(List<String> components) {
    List<List<Integer>> out = new ArrayList<>();
    for (List<String> merge : PAPER) {
      int from = components.indexOf(merge.get(0));
      int to = components.indexOf(merge.get(1));
      if (from < 0 || to < 0 || to < from) {
        throw new IllegalArgumentException("luo-carey: figure18.components must hold the"
            + " paper's labelled components " + merge.get(0) + " and, after it, " + merge.get(1)
            + " (the paper's merge from one to the other), got " + components);
      }
      List<Integer> span = new ArrayList<>();
      for (int i = from; i <= to; i++) {
        span.add(i);
      }
      out.add(span);
    }
    return out;
  }

  /** Runs the policy on every combination of the components' sizes. */
  static List<Case> run(LuoCareyConfig.Figure18 cfg) {
    List<List<Long>> choices = new ArrayList<>();
    for (String c : cfg.components()) {
      choices.add(range(c).points());
    }
    List<Case> out = new ArrayList<>();
    for (List<Long> sizes : combinations(choices)) {
      out.add(new Case(sizes, schedule(cfg, sizes)));
    }
    return out;
  }

  private static List<List<Long>> combinations(List<List<Long>> choices) {
    List<List<Long>> out = new ArrayList<>();
    out.add(List.of());
    for (List<Long> options : choices) {
      List<List<Long>> next = new ArrayList<>();
      for (List<Long> prefix : out) {
        for (long v : options) {
          List<Long> l = new ArrayList<>(prefix);
          l.add(v);
          next.add(l);
        }
      }
      out = next;
    }
    return out;
  }

  /** Two executions of the policy on {@code sizes} (oldest first). */
  static List<List<Integer>> schedule(LuoCareyConfig.Figure18 cfg, List<Long> sizes) {
    MergePolicy policy = Plugins.mergePolicy(new NamedPlugin("size-tiered", Map.of(
        "size-ratio", Double.toString(cfg.sizeRatio()),
        "min-merge", Integer.toString(cfg.minMerge()),
        "max-merge", Integer.toString(cfg.maxMerge()))));
    Components ctx = new Components(sizes);
    PolicyDriver driver = new PolicyDriver("size-tiered", policy);
    driver.diskComponentAdded(ctx, false, ctx);
    driver.diskComponentAdded(ctx, false, ctx);
    return ctx.merges;
  }

  /**
   * The claim from the cases run: it holds if every case was scheduled exactly as the paper says
   * ({@code expected}), and there is at least one case.
   */
  static Claim claim(LuoCareyConfig.Figure18 cfg, List<List<Integer>> expected,
      List<Case> cases) {
    int agree = 0;
    Case firstOther = null;
    for (Case c : cases) {
      if (c.merges().equals(expected)) {
        agree++;
      } else if (firstOther == null) {
        firstOther = c;
      }
    }
    boolean ok = !cases.isEmpty() && agree == cases.size();
    String ours = agree + " of " + cases.size() + " trees scheduled "
        + describe(cfg.components(), expected) + (firstOther == null ? "" : "; first other: "
            + sizes(firstOther.sizes()) + " gave " + describe(cfg.components(),
                firstOther.merges()));
    return Claim.judged("AC-S4", "The size-tiered policy reproduces the Fig. 18 example (min "
        + cfg.minMerge() + ", max " + cfg.maxMerge() + ", T = " + Numbers.format(
            cfg.sizeRatio()) + "): a 4-component merge from the oldest eligible component, then"
        + " a 3-component merge of the youngest run, skipping the components being merged"
        + " (lsm-policies' size-tiered, called twice on the figure's components, oldest first "
        + String.join(", ", cfg.components()) + ": a range is a size only the figure shows, run"
        + " at both ends and the middle; the notes say how the sizes were constructed from the"
        + " text)", "10GB..5GB (4), then 128MB..64MB (3)", ours,
        "every tree, exactly", ok, ok ? "the policy schedules the paper's two merges on every"
            + " tree" : cases.isEmpty() ? "no tree was run" : (cases.size() - agree)
                + " tree(s) scheduled otherwise");
  }

  private static String describe(List<String> labels, List<List<Integer>> merges) {
    if (merges.isEmpty()) {
      return "no merge";
    }
    List<String> parts = new ArrayList<>();
    for (List<Integer> m : merges) {
      parts.add(labels.get(m.get(0)) + " to " + labels.get(m.get(m.size() - 1)) + " ("
          + m.size() + ")");
    }
    return String.join(", then ", parts);
  }

  private static String sizes(List<Long> sizes) {
    List<String> s = new ArrayList<>();
    for (long b : sizes) {
      s.add(Numbers.format(b / 1048576.0) + " MB");
    }
    return "[" + String.join(", ", s) + "]";
  }

  /** The components as a policy sees them: runs newest first; merges recorded, not applied. */
  private static final class Components implements MergeContext, PolicyDriver.Host {
    private final List<RunInfo> runs = new ArrayList<>();
    private final int count;
    final List<List<Integer>> merges = new ArrayList<>();

    Components(List<Long> sizesOldestFirst) {
      count = sizesOldestFirst.size();
      for (int i = count - 1; i >= 0; i--) { // newest first; run id = position oldest first
        long s = sizesOldestFirst.get(i);
        runs.add(new RunInfo(i, 0, List.of(new ComponentInfo("c" + i, i, i, s, s, 1,
            new byte[0], new byte[0])), false));
      }
    }

    @Override
    public List<RunInfo> runs() {
      return List.copyOf(runs);
    }

    /** Marks the runs of a merge of whole runs merging and records their positions. */
    @Override
    public boolean start(MergeRequest request) {
      if (!(request instanceof MergeRequest.Runs merge)) {
        return false;
      }
      List<Integer> at = new ArrayList<>();
      for (long id : merge.runIds()) {
        int i = indexOf(id);
        if (i < 0 || runs.get(i).merging()) {
          return false;
        }
        at.add(i);
      }
      List<Integer> positions = new ArrayList<>();
      for (int i : at) {
        RunInfo r = runs.get(i);
        runs.set(i, new RunInfo(r.runId(), r.level(), r.components(), true));
        positions.add((int) r.runId());
      }
      positions.sort(null);
      merges.add(positions);
      return true;
    }

    private int indexOf(long runId) {
      for (int i = 0; i < runs.size(); i++) {
        if (runs.get(i).runId() == runId) {
          return i;
        }
      }
      return -1;
    }
  }
}
