package org.strata.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.peers.CompareConfig;
import org.strata.peers.CompareConfigJson;
import org.strata.peers.CompareRunner;
import org.strata.peers.ComparisonReport;
import org.strata.peers.StrataSystem;
import org.strata.peers.SystemSpec;
import org.strata.twophase.LookupResult;
import org.strata.twophase.PhaseResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code strata compare}: one two-phase configuration against Strata, RocksDB and Hyracks. */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = "Run one two-phase configuration (docs/compare.md) against every system its"
        + " \"systems\" list names (strata with dataset overrides, rocksdb leveled or universal,"
        + " hyracks), one after another on fresh directories, with the same driver, keys, value"
        + " bytes and arrivals. Writes comparison.json, comparison.md, charts, and each system's"
        + " own report in DIR/<label>/.")
final class CompareCommand implements Callable<Integer> {
  @Option(names = "--config", required = true, paramLabel = "FILE",
      description = "Comparison configuration, e.g. examples/compare-quick.json.")
  Path config;

  @Mixin ConfigOverridesOption overrides;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory.")
  Path out;

  @Option(names = "--phases", paramLabel = "load|all|lookup", defaultValue = "all",
      description = "all (load, testing, running; default), load (the same-bytes load"
          + " comparison; Strata entries without an api run through both the dataset API and"
          + " LsmStore.put) or lookup (load, then random gets of loaded keys with each of the"
          + " configuration's lookup.threads, Strata's page cache against RocksDB's block cache"
          + " of the same size).")
  String phases;

  @Option(names = "--find-sustainable", description = "After the testing phase, bisect the"
      + " arrival rate between 0 and the testing maximum with running phases on fresh copies"
      + " until the bracket is within 5%%; report the highest sustainable rate and the write"
      + " latency at 95%% of it.")
  boolean findSustainable;

  @Option(names = "--phase-seconds", paramLabel = "S", description = "Seconds of arrivals of"
      + " each running phase of --find-sustainable (default: running.duration-seconds).")
  Integer phaseSeconds;

  @Option(names = "--system", paramLabel = "LABEL", description = "Run only the systems entry"
      + " with this label (repeatable; the configuration's order is kept), e.g. one system of a"
      + " long comparison at a time. Default: every entry.")
  List<String> systems;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (!List.of("all", "load", "lookup").contains(phases)) {
      throw new ParameterException(spec.commandLine(), "--phases: '" + phases
          + "' is not allowed; allowed: load, all, lookup");
    }
    if (phaseSeconds != null && !findSustainable) {
      throw new ParameterException(spec.commandLine(), "--phase-seconds goes with"
          + " --find-sustainable");
    }
    if (phaseSeconds != null && phaseSeconds < 2) {
      throw new ParameterException(spec.commandLine(), "--phase-seconds: " + phaseSeconds
          + " is not allowed; allowed: an integer of at least 2");
    }
    if (findSustainable && !phases.equals("all")) {
      throw new ParameterException(spec.commandLine(), "--find-sustainable needs --phases all");
    }
    CompareConfig cfg = only(overrides.read(config, CompareConfigJson::parse));
    String source = overrides.source(config);
    // Every Strata system's policy and schedulers, before anything is written.
    ConfigFiles.check(source, cfg.twoPhase());
    for (SystemSpec s : cfg.systems()) {
      if (s instanceof StrataSystem) {
        for (SystemSpec.Run r : s.targets(cfg.twoPhase(), false)) {
          ConfigFiles.check(source + ": systems entry '" + s.label() + "'", r.config());
        }
      }
    }
    try {
      return run(cfg);
    } catch (InvalidConfigurationException e) {
      throw ConfigFiles.named(source, e); // what the engine finds later names the file too
    }
  }

  private int run(CompareConfig cfg) throws Exception {
    CompareRunner.Mode mode = phases.equals("load") ? CompareRunner.Mode.LOAD
        : phases.equals("lookup") ? CompareRunner.Mode.LOOKUP
        : findSustainable ? CompareRunner.Mode.FIND_SUSTAINABLE : CompareRunner.Mode.ALL;
    List<CompareRunner.Outcome> outcomes = new CompareRunner(cfg, out, System.err,
        System.console() != null).run(mode, phaseSeconds == null ? 0 : phaseSeconds);
    PrintWriter o = spec.commandLine().getOut();
    for (CompareRunner.Outcome x : outcomes) {
      if (mode == CompareRunner.Mode.LOAD) {
        o.printf(Locale.ROOT, "%s: load %,.0f records/s%n", x.result().label(),
            x.result().loadRecordsPerSecond());
        continue;
      }
      if (mode == CompareRunner.Mode.LOOKUP) {
        for (LookupResult.Run r : x.result().lookups().runs()) {
          o.printf(Locale.ROOT, "%s: %d thread(s) %,.0f gets/s, p50 %.4f ms, p99 %.4f ms, max"
                  + " %.3f ms%s%n", x.result().label(), r.threads(), r.getsPerSecond(),
              r.latency().p50(), r.latency().p99(), r.latency().max(),
              Double.isNaN(r.cacheHitRatio()) ? ""
                  : String.format(Locale.ROOT, ", cache hit ratio %.3f", r.cacheHitRatio()));
        }
        continue;
      }
      if (x.search() != null) {
        o.printf(Locale.ROOT, "%s: testing max %,.0f writes/s; %s%n", x.result().label(),
            x.result().testing().throughput(), x.search().quote());
        continue;
      }
      PhaseResult p = x.result().runs().get(0);
      o.printf(Locale.ROOT, "%s: load %,.0f records/s, testing max %,.0f writes/s, served %,.0f"
              + " of %,.0f arrivals/s%s, write p99 %s ms, max %s ms, stalled %.1f s, %s%n",
          x.result().label(), x.result().loadRecordsPerSecond(),
          x.result().testing().throughput(), p.throughput(), p.arrivalRate(),
          p.queueAtEnd() > 0 ? String.format(Locale.ROOT, " (%,d still queued at the end)",
              p.queueAtEnd()) : "",
          ComparisonReport.figure(p.writeLatency().p99()),
          ComparisonReport.figure(p.writeLatency().max()), p.stallSeconds(),
          p.verdict().word());
    }
    o.println("report: " + out.resolve("comparison.md"));
    o.flush();
    return 0;
  }

  /** The configuration with only the entries {@code --system} names (all without it). */
  private CompareConfig only(CompareConfig cfg) {
    if (systems == null || systems.isEmpty()) {
      return cfg;
    }
    List<String> labels = cfg.systems().stream().map(SystemSpec::label).toList();
    for (String label : systems) {
      if (!labels.contains(label)) {
        throw new ParameterException(spec.commandLine(), "--system: '" + label + "' is not a"
            + " label of the configuration's systems; allowed: " + String.join(", ", labels));
      }
    }
    return new CompareConfig(cfg.twoPhase(), cfg.systems().stream()
        .filter(x -> systems.contains(x.label())).toList(), cfg.lookup());
  }

}
