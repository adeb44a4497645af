package org.strata.peers;

import com.google.common.util.concurrent.RateLimiter;
import java.util.Locale;
import org.apache.hyracks.storage.common.buffercache.IRateLimiter;
import org.apache.hyracks.storage.common.buffercache.SleepRateLimiter;
import org.strata.lsm.config.ByteSize;

/**
 * How many bytes per second Hyracks' page-write throttle admits to one writer that asks for one
 * page at a time, as a flush or merge does, against the rate it was given: the bound of the
 * Hyracks peer's I/O budget use (docs/compare.md). Beside it, for contrast, Guava's {@code
 * RateLimiter} without a warm-up period (Hyracks' is Guava's with a one-second warm-up) asked the
 * same way, and how long a sleep of one request's interval really takes.
 *
 * <pre>
 * java -cp "cli/strata-cli/target/strata-cli.jar:cli/strata-cli/target/lib/*" \
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
      IRateLimiter hyracks = SleepRateLimiter.create(rate);
      double h = admitted(() -> hyracks.request(page), page);
      RateLimiter plain = RateLimiter.create(rate);
      double g = admitted(() -> plain.acquire(page), page);
      long interval = (long) (1e9 * page / rate);
      long start = System.nanoTime();
      int sleeps = 0;
      while (System.nanoTime() - start < 1_000_000_000L) {
        Thread.sleep(interval / 1_000_000, (int) (interval % 1_000_000));
        sleeps++;
      }
      System.out.printf(Locale.ROOT, "run %d: %s requests: Hyracks' throttle %.2f MiB/s (%.2f of"
          + " %.2f MiB/s), Guava's without warm-up %.2f MiB/s (%.2f); a sleep of %.3f ms takes"
          + " %.3f ms%n", run, args[1], h / (1 << 20), h / rate, rate / (double) (1 << 20),
          g / (1 << 20), g / rate, interval / 1e6, (System.nanoTime() - start) / 1e6 / sleeps);
    }
  }

  /** One page request. */
  private interface Request {
    void run() throws Exception;
  }

  /** Bytes per second admitted to {@code request} repeated for three seconds. */
  private static double admitted(Request request, int page) throws Exception {
    long start = System.nanoTime();
    long bytes = 0;
    while (System.nanoTime() - start < 3_000_000_000L) {
      request.run();
      bytes += page;
    }
    return bytes / ((System.nanoTime() - start) / 1e9);
  }
}
