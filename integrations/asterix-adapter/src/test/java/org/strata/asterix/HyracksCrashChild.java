package org.strata.asterix;

import java.io.File;
import java.util.Map;
import org.strata.lsm.config.NamedPlugin;

/**
 * The process {@link HyracksCrashTest} kills: opens (or creates) a Hyracks tree under tiering and
 * greedy with a 1 MB/s budget, then inserts batches from a start key and flushes each, printing
 * {@code FLUSHED <next key> <live merges>} once a flush has completed (its component is valid and
 * forced), until it is killed.
 *
 * <p>Arguments: directory, start key, batch size.
 */
public final class HyracksCrashChild {
  private HyracksCrashChild() {}

  public static void main(String[] args) throws Exception {
    File dir = new File(args[0]);
    int next = Integer.parseInt(args[1]);
    int batch = Integer.parseInt(args[2]);
    boolean create = !new File(dir, "index").exists();
    StrataIoScheduler io = new StrataIoScheduler(new NamedPlugin("greedy", Map.of()),
        StrataIoScheduler.Scope.INDEX, Thread::new, null, 1);
    HyracksTree tree = new HyracksTree(dir, new StrataMergePolicyFactory().createMergePolicy(
        HyracksCrashTest.POLICY, null), io, new StrataPageWriteCallbackFactory(1L << 20, 64 << 10),
        256, create);
    while (true) {
      for (int i = 0; i < batch; i++, next++) {
        tree.insert(next, next * 7);
      }
      tree.flush();
      System.out.println("FLUSHED " + next + " " + io.liveMergeCount());
      System.out.flush();
    }
  }
}
