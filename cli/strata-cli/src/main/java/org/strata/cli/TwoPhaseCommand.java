package org.strata.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.twophase.PhaseResult;
import org.strata.twophase.ReportWriter;
import org.strata.twophase.SustainableRate;
import org.strata.twophase.TwoPhaseConfig;
import org.strata.twophase.TwoPhaseConfigJson;
import org.strata.twophase.TwoPhaseResult;
import org.strata.twophase.TwoPhaseRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code strata two-phase}: Luo & Carey's two-phase experiment, with its report. */
@Command(name = "two-phase", mixinStandardHelpOptions = true,
    description = "Run a two-phase experiment (docs/two-phase.md): load a dataset, find the "
        + "maximum write throughput in a closed-loop testing phase, then measure write latency "
        + "in open-loop running phases. Writes summary.json, timeseries.csv, .hlog files, PNG "
        + "charts and report.md into --out.")
final class TwoPhaseCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, paramLabel = "FILE",
      description = "Experiment configuration, e.g. examples/quick.json.")
  Path config;

  @Mixin ConfigOverridesOption overrides;

  @Option(names = "--out", required = true, paramLabel = "DIR",
      description = "Output directory (its data/ subdirectory is scratch, deleted at the end).")
  Path out;

  @Option(names = "--keep-data", description = "Keep the datasets under DIR/data.")
  boolean keepData;

  @Option(names = "--find-sustainable", description = "After the testing phase, bisect the"
      + " arrival rate between 0 and the testing maximum with running phases on fresh copies"
      + " until the bracket is within 5%%; report the highest sustainable rate and the write"
      + " latency at 95%% of it (sustainable.json, report.md).")
  boolean findSustainable;

  @Option(names = "--phase-seconds", paramLabel = "S", description = "Seconds of arrivals of"
      + " each running phase of --find-sustainable (default: running.duration-seconds).")
  Integer phaseSeconds;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (phaseSeconds != null && (!findSustainable || phaseSeconds < 2)) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--phase-seconds: "
          + phaseSeconds + " is not allowed; allowed: an integer of at least 2, with"
          + " --find-sustainable");
    }
    TwoPhaseConfig cfg = overrides.read(config, TwoPhaseConfigJson::parse);
    String source = overrides.source(config);
    ConfigFiles.check(source, cfg); // before anything is written
    try {
      return run(cfg);
    } catch (InvalidConfigurationException e) {
      throw ConfigFiles.named(source, e); // what the engine finds later names the file too
    }
  }

  private int run(TwoPhaseConfig cfg) throws Exception {
    TwoPhaseRunner runner = new TwoPhaseRunner(cfg, out, System.err, System.console() != null,
        keepData);
    PrintWriter o = spec.commandLine().getOut();
    if (findSustainable) {
      SustainableRate s = runner.findSustainable(phaseSeconds == null
          ? cfg.running().durationSeconds() : phaseSeconds, 0.05);
      ReportWriter.writeSearch(out, s);
      o.println(s.quote());
      o.println("report: " + out.resolve("report.md"));
      o.flush();
      return 0;
    }
    TwoPhaseResult r = runner.run();
    ReportWriter.write(out, r);
    o.printf(Locale.ROOT, "maximum write throughput (testing, %s): %,.0f writes/s%n",
        r.testing().scheduler(), r.testing().throughput());
    for (PhaseResult p : r.runs()) {
      o.printf(Locale.ROOT, "%s: %,.0f arrivals/s, write latency p50 %.2f ms, p99 %.2f ms, max"
              + " %.2f ms; processing p99 %.2f ms; %d stalls (%.1f s); max %d disk components%n",
          p.name(), p.arrivalRate(), p.writeLatency().p50(), p.writeLatency().p99(),
          p.writeLatency().max(), p.processingLatency().p99(), p.stallCount(), p.stallSeconds(),
          p.maxDiskComponents());
    }
    o.println(ReportWriter.quote(r));
    o.println("report: " + out.resolve("report.md"));
    o.flush();
    return 0;
  }

}
