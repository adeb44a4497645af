package org.strata.asterix;

/** Waits until a Hyracks tree has no flush or merge running or waiting. */
final class Quiescence {
  private Quiescence() {}

  static void await(HyracksTree tree, StrataIoScheduler io) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (!io.idle() || tree.merging()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("flushes and merges did not finish within 2 minutes; "
            + io.liveMergeCount() + " merges live, components " + tree.diskComponentSizes());
      }
      Thread.sleep(2);
    }
  }
}
