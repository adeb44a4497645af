package org.strata.asterixdb.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.strata.asterixdb.AsterixDbTarget;
import org.strata.twophase.PhaseResult;
import org.strata.twophase.ReportWriter;
import org.strata.twophase.TwoPhaseConfig;
import org.strata.twophase.TwoPhaseConfigJson;
import org.strata.twophase.TwoPhaseResult;
import org.strata.twophase.TwoPhaseRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code strata asterixdb two-phase --config FILE --out DIR}: the two-phase experiment of {@code
 * strata two-phase} against an embedded AsterixDB cluster written through a socket feed ({@link
 * AsterixDbTarget}): the dataset's merge policy from the configuration, one running phase per
 * configured scheduler; each node's memory-component budget is the dataset's memory component
 * size times their count (at least 4 MB).
 */
@Command(name = "two-phase", mixinStandardHelpOptions = true,
    description = "Run a two-phase experiment (docs/two-phase.md) against an embedded AsterixDB"
        + " cluster fed through a socket feed (docs/asterixdb.md).")
final class AsterixDbTwoPhaseCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, paramLabel = "FILE",
      description = "Experiment configuration, e.g. examples/quick.json.")
  Path config;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory.")
  Path out;

  @Option(names = "--nodes", defaultValue = "2",
      description = "Node controllers (default: ${DEFAULT-VALUE}).")
  int nodes;

  @Option(names = "--feed-port", defaultValue = "10001",
      description = "Port of the socket feed (default: ${DEFAULT-VALUE}).")
  int feedPort;

  @Option(names = "--asterixdb-policy", description = "Run the dataset with AsterixDB's own"
      + " implementation of the configured policy (concurrent, prefix, constant, no-merge; same"
      + " parameters) instead of Strata's: the baseline of a comparison.")
  boolean asterixDbPolicy;

  @Option(names = "--io-budget", defaultValue = "STRATA", paramLabel = "WHOSE",
      description = "Whose throttle applies the configuration's io.write-rate-limit in the"
          + " testing and running phases: STRATA (one budget per node controller shared by its"
          + " partitions, flushes first; the report shows its use) or ASTERIXDB (AsterixDB's own"
          + " storage.write.rate.limit per storage partition). Default: ${DEFAULT-VALUE}.")
  AsterixDbTarget.IoBudget ioBudget;

  @Option(names = "--keep-data", description = "Keep the clusters' data under DIR/data.")
  boolean keepData;

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    TwoPhaseConfig cfg = TwoPhaseConfigJson.read(config);
    long budget = Math.max(4L << 20, cfg.dataset().store().memoryComponent().size().bytes()
        * cfg.dataset().store().memoryComponent().count());
    AsterixDbTarget target = new AsterixDbTarget(cfg.dataset().store().mergePolicy(), budget,
        nodes, feedPort, cfg.dataset().store().io().writeRateLimit().bytes(),
        cfg.dataset().store().io().forceBytes().bytes(), asterixDbPolicy, ioBudget);
    TwoPhaseRunner runner = new TwoPhaseRunner(cfg, target, out, System.err,
        System.console() != null, keepData, false);
    TwoPhaseResult r = runner.run();
    ReportWriter.write(out, r);
    PrintWriter o = spec.commandLine().getOut();
    o.printf(Locale.ROOT, "maximum write throughput (testing, %s): %,.0f writes/s%n",
        r.testing().scheduler(), r.testing().throughput());
    for (PhaseResult p : r.runs()) {
      o.printf(Locale.ROOT, "%s: %,.0f arrivals/s, write latency p50 %.2f ms, p99 %.2f ms, max"
              + " %.2f ms; max %d disk components%n", p.name(), p.arrivalRate(),
          p.writeLatency().p50(), p.writeLatency().p99(), p.writeLatency().max(),
          p.maxDiskComponents());
    }
    o.println("report: " + out.resolve("report.md"));
    o.flush();
    return 0;
  }
}
