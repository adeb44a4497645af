package org.strata.asterix;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMIOOperationScheduler;
import org.apache.hyracks.storage.am.lsm.common.api.ILSMMergePolicy;
import org.apache.hyracks.storage.am.lsm.common.impls.GreedyScheduler;
import org.apache.hyracks.storage.am.lsm.common.impls.NoOpIoOperationFailedCallback;
import org.apache.hyracks.storage.am.lsm.common.impls.PrefixMergePolicyFactory;
import org.strata.lsm.config.NamedPlugin;

/**
 * Peer comparison on one Hyracks LSM B+-tree setup, same process: Hyracks' own {@code prefix}
 * policy and {@code GreedyScheduler} against Strata's {@code prefix} and {@code greedy} through
 * the adapter, with the same parameters and the same throttled, forced page-write callback.
 * Memory-full flushes come from Hyracks' thread-counting tracker. Prints per-run figures and the
 * Strata/Hyracks ratios of the medians. Run by {@code scripts/bench-hyracks-adapter.sh}.
 *
 * <p>Arguments: tuples (default 1,000,000), write budget in MB/s (default 8), repetitions
 * (default 3).
 */
public final class HyracksPeerRun {
  private HyracksPeerRun() {}

  private record Result(double insertsPerSecond, double totalSeconds, int components,
      long flushPages, long mergePages) {}

  public static void main(String[] args) throws Exception {
    int tuples = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    long rate = (args.length > 1 ? Long.parseLong(args[1]) : 8) << 20;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Map<String, String> prefix = Map.of("max-mergable-component-size", Long.toString(4L << 20),
        "max-tolerance-component-count", "5");
    List<Result> hyracks = new ArrayList<>();
    List<Result> strata = new ArrayList<>();
    for (int r = 0; r < reps; r++) {
      hyracks.add(run("hyracks", tuples, rate, prefix));
      strata.add(run("strata", tuples, rate, prefix));
    }
    Result h = median(hyracks);
    Result s = median(strata);
    System.out.printf(Locale.ROOT, "median hyracks: %s%nmedian strata:  %s%n", h, s);
    System.out.printf(Locale.ROOT,
        "strata/hyracks: inserts/s %.2f, total time %.2f, merge pages %.2f, components %d vs %d%n",
        s.insertsPerSecond() / h.insertsPerSecond(), s.totalSeconds() / h.totalSeconds(),
        (double) s.mergePages() / h.mergePages(), s.components(), h.components());
    System.exit(0);
  }

  private static Result run(String who, int tuples, long rate, Map<String, String> prefix)
      throws Exception {
    File dir = Files.createTempDirectory(new File("target").toPath(), "peer-").toFile();
    ILSMMergePolicy policy;
    ILSMIOOperationScheduler scheduler;
    StrataIoScheduler strataIo = null;
    if (who.equals("hyracks")) {
      policy = new PrefixMergePolicyFactory().createMergePolicy(prefix, null);
      scheduler = new GreedyScheduler(Thread::new, NoOpIoOperationFailedCallback.INSTANCE, 1, 8,
          1);
    } else {
      Map<String, String> p = new java.util.HashMap<>(prefix);
      p.put("policy", "prefix");
      policy = new StrataMergePolicyFactory().createMergePolicy(p, null);
      strataIo = new StrataIoScheduler(new NamedPlugin("greedy", Map.of()),
          StrataIoScheduler.Scope.INDEX, Thread::new, null, 1);
      scheduler = strataIo;
    }
    StrataPageWriteCallbackFactory pageWrites = new StrataPageWriteCallbackFactory(rate, 1L << 20);
    int[] keys = PolicyOnHyracksTest.shuffledKeys(tuples, 5);
    Result result;
    try (HyracksTree tree = new HyracksTree(dir, policy, scheduler, pageWrites, 128)) {
      long t0 = System.nanoTime();
      for (int k : keys) {
        tree.insert(k, k * 7);
      }
      long t1 = System.nanoTime();
      tree.flush();
      while (tree.merging() || (strataIo != null && !strataIo.idle())) {
        Thread.sleep(5);
      }
      long t2 = System.nanoTime();
      if (tree.scanKeys().cardinality() != tuples) {
        throw new IllegalStateException(who + ": keys lost");
      }
      result = new Result(tuples / ((t1 - t0) / 1e9), (t2 - t0) / 1e9,
          tree.diskComponentCount(), pageWrites.stats().flushPages(),
          pageWrites.stats().mergePages());
    } finally {
      if (strataIo != null) {
        strataIo.close();
      } else {
        ((java.io.Closeable) scheduler).close();
      }
    }
    System.out.printf(Locale.ROOT, "%-8s %s%n", who, result);
    return result;
  }

  private static Result median(List<Result> rs) {
    List<Result> sorted = new ArrayList<>(rs);
    Collections.sort(sorted, (a, b) -> Double.compare(a.insertsPerSecond(), b.insertsPerSecond()));
    return sorted.get(sorted.size() / 2);
  }
}
