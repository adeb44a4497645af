package org.strata.peers;

import java.util.Locale;
import org.apache.hyracks.storage.common.buffercache.IRateLimiter;
import org.apache.hyracks.storage.common.buffercache.SleepRateLimiter;
import org.strata.lsm.config.ByteSize;

/**
 * How many bytes per second Hyracks' page-write throttle admits to one writer that asks for one
 * page at a time, as a flush or merge does, against the rate it was given: the bound of the
 * Hyracks peer's I/O budget use (docs/compare.md). Alone on the machine, nothing else running.
 *
 * <pre>
 * java -cp "strata-cli/target/strata-cli.jar:strata-cli/target/lib/*" \
 *     org.strata.peers.HyracksThrottleProbe 20MB 4KB 3
 * </pre>
 */
public final class HyracksThrottleProbe {
  private HyracksThrottleProbe() {}

  /**
   * Prints one line per run of three seconds.
   *
   * @param args the rate (e.g. {@code 20MB}), the page size (e.g. {@code 4KB}), the runs
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: HyracksThrottleProbe RATE PAGE-SIZE RUNS, e.g. 20MB 4KB 3");
      System.exit(2);
    }
    long rate = ByteSize.parse("rate", args[0]).bytes();
    int page = (int) ByteSize.parse("page size", args[1]).bytes();
    int runs = Integer.parseInt(args[2]);
    for (int run = 1; run <= runs; run++) {
      IRateLimiter limiter = SleepRateLimiter.create(rate);
      long start = System.nanoTime();
      long bytes = 0;
      while (System.nanoTime() - start < 3_000_000_000L) {
        limiter.request(page);
        bytes += page;
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(Locale.ROOT, "run %d: %s pages: %.2f MiB/s admitted of %.2f MiB/s"
          + " (%.2f)%n", run, args[1], bytes / seconds / (1 << 20), rate / (double) (1 << 20),
          bytes / seconds / rate);
    }
  }
}
