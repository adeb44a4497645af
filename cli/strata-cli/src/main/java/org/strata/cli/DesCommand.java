package org.strata.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.strata.lsm.config.Quantities;
import org.strata.lsm.config.NamedPlugin;
import org.strata.sim.des.ArrivalProcess;
import org.strata.sim.des.DesSetup;
import org.strata.sim.des.DiscreteEventSimulator;
import org.strata.sim.des.LatencySummary;
import org.strata.sim.des.MergeLogEntry;
import org.strata.sim.des.DesPhaseResult;
import org.strata.sim.des.SecondSample;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code strata des}: Luo & Carey's two-phase experiment in virtual time, with the real policy and
 * scheduler classes (see {@link DiscreteEventSimulator}).
 */
@Command(name = "des", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Discrete-event simulation of a tree under a merge policy and merge scheduler:"
        + " a testing phase (closed loop, --testing-scheduler) that finds the maximum write"
        + " throughput, and a running phase (open loop, --scheduler) at --utilization of it, a"
        + " --rate or a --burst pattern, reporting write and processing latency, stalls and disk"
        + " components. Defaults are the paper's setup: 100 M entries of 1 KB, 128 MB memory"
        + " components, 100 MB/s, two-hour phases.")
final class DesCommand implements Callable<Integer> {
  @Option(names = "--policy", required = true, paramLabel = "NAME[,NAME...]", split = ",",
      description = "Merge policy, e.g. tiering, leveling, size-tiered, binomial; several,"
          + " comma-separated, run the same phases and arrivals and are compared in one table and"
          + " on one set of charts.")
  java.util.List<String> policies = new java.util.ArrayList<>();

  @Option(names = "--param", paramLabel = "[POLICY:]KEY=VALUE",
      description = "A policy parameter; repeat for several. With several policies,"
          + " POLICY:KEY=VALUE sets it for one of them, KEY=VALUE for all.")
  Map<String, String> params = new LinkedHashMap<>();

  /** The policy being run (one of {@link #policies}) and its parameters. */
  private String policy;
  private Map<String, String> policyParams;

  @Option(names = "--scheduler", defaultValue = "greedy", paramLabel = "NAME",
      description = "Scheduler of the running phase: single-thread, fair, greedy (default),"
          + " leveldb-score."
          + " The testing phase uses --testing-scheduler.")
  String scheduler;

  @Option(names = "--scheduler-param", paramLabel = "KEY=VALUE",
      description = "A scheduler parameter, e.g. max-concurrent-merges=2.")
  Map<String, String> schedulerParams = new LinkedHashMap<>();

  @Option(names = "--testing-scheduler", defaultValue = "fair", paramLabel = "NAME",
      description = "Scheduler of the testing phase (default fair, as the paper prescribes).")
  String testingScheduler;

  @Option(names = "--constraint", defaultValue = "global", paramLabel = "global|local|none",
      description = "Component constraint that stops writes.")
  String constraint;

  @Option(names = "--admission", defaultValue = "asap", paramLabel = "asap|limit|graded",
      description = "Write admission.")
  String admission;

  @Option(names = "--write-rate", defaultValue = "4000KB", paramLabel = "SIZE",
      description = "Pace of limit and graded admission in bytes per second, as the store's"
          + " flow-control.write-rate (e.g. 4MB; default ${DEFAULT-VALUE}, 4,000 writes/s of 1KB"
          + " entries); the simulator paces writes of --entry-size.")
  String writeRate;

  @Option(names = "--slowdown-at", defaultValue = "0.8", paramLabel = "FRACTION",
      description = "Fraction of the constraint where graded admission slows writes.")
  double slowdownAt;

  @Option(names = "--bandwidth", defaultValue = "100MB", paramLabel = "SIZE",
      description = "B: bytes per second for flushes and merges.")
  String bandwidth;

  @Option(names = "--memory-component", defaultValue = "128MB", paramLabel = "SIZE",
      description = "M: memory component size.")
  String memoryComponent;

  @Option(names = "--memory-components", defaultValue = "2", paramLabel = "N",
      description = "Memory components per tree.")
  int memoryComponents;

  @Option(names = "--entries", defaultValue = "100000000", paramLabel = "N",
      description = "Entries loaded before each phase; updates draw keys uniformly from them.",
      converter = QuantityConverters.Count.class)
  long entries;

  @Option(names = "--entry-size", defaultValue = "1KB", paramLabel = "SIZE",
      description = "Bytes per entry.")
  String entrySize;

  @Option(names = "--page-size", defaultValue = "4KB", paramLabel = "SIZE",
      description = "Page size for remaining input pages.")
  String pageSize;

  @Option(names = "--memory-write-rate", defaultValue = "1000000", paramLabel = "WRITES/S",
      description = "Writes per second a memory component absorbs.")
  double memoryWriteRate;

  @Option(names = "--phase", defaultValue = "both", paramLabel = "testing|running|both",
      description = "Phases to run.")
  String phase;

  @Option(names = "--utilization", defaultValue = "0.95", paramLabel = "U",
      description = "Running arrival rate as a fraction of the testing maximum.")
  double utilization;

  @Option(names = "--max-throughput", paramLabel = "WRITES/S",
      description = "The testing maximum to apply --utilization to when --phase running.")
  Double maxThroughput;

  @Option(names = "--rate", paramLabel = "WRITES/S",
      description = "A constant running arrival rate (instead of --utilization).")
  Double rate;

  @Option(names = "--burst", paramLabel = "RATE:SECONDS,...",
      description = "A repeating arrival pattern, e.g. 2000:1500,8000:300.")
  String burst;

  @Option(names = "--arrivals", defaultValue = "constant", paramLabel = "constant|poisson",
      description = "Arrival process at the running rate (default constant, as in the paper).")
  String arrivals;

  @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
      description = "Seed of Poisson arrivals.")
  long seed;

  @Option(names = "--duration", defaultValue = "7200", paramLabel = "SECONDS",
      description = "Simulated seconds per phase.")
  double duration;

  @Option(names = "--series", paramLabel = "FILE",
      description = "Write the per-second series of every phase as CSV.")
  Path series;

  @Option(names = "--compare", split = ",", paramLabel = "S1,S2,...",
      description = "Run the running phase once per scheduler on the same arrivals, e.g."
          + " single-thread,fair,greedy (instead of --scheduler).")
  java.util.List<String> compare = new java.util.ArrayList<>();

  @Option(names = "--chart", paramLabel = "DIR",
      description = "Write PNG charts (throughput, disk components, latency percentiles) of the"
          + " phases into DIR.")
  Path chart;

  @Option(names = "--chart-name", defaultValue = "des", paramLabel = "PREFIX",
      description = "File name prefix of the charts.")
  String chartName;

  @Option(names = "--json", description = "Print one JSON object.")
  boolean json;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (!phase.equals("testing") && !phase.equals("running") && !phase.equals("both")) {
      throw usage("--phase must be testing, running or both, got '" + phase + "'");
    }
    if (!arrivals.equals("constant") && !arrivals.equals("poisson")) {
      throw usage("--arrivals must be constant or poisson, got '" + arrivals + "'");
    }
    if (!(utilization > 0 && utilization <= 10)) {
      throw usage("--utilization must be a positive fraction such as 0.95, got " + utilization);
    }
    if (!(duration > 0) || duration > 1e8) {
      throw usage("--duration must be a positive number of seconds, got " + duration);
    }
    if (phase.equals("running") && rate == null && burst == null && maxThroughput == null) {
      throw usage("--phase running needs --rate, --burst or --max-throughput (with"
          + " --utilization)");
    }
    Map<String, Map<String, String>> byPolicy;
    try {
      byPolicy = PolicyParameters.byPolicy(policies, params);
    } catch (IllegalArgumentException e) {
      throw usage(e.getMessage());
    }
    if (policies.size() == 1) {
      policy = policies.get(0);
      policyParams = byPolicy.get(policy);
      Outcome o = simulate();
      if (series != null) {
        writeSeries(o.testing(), o.runs());
      }
      if (chart != null) {
        DesCharts.write(chart, chartName, policy + " " + policyParams, labelled(o, null));
      }
      print(o.setup(), o.testing(), o.runs(), o.seconds());
      return 0;
    }
    if (series != null) {
      throw usage("--series writes one policy's series; give one --policy with it");
    }
    java.util.List<Outcome> outcomes = new java.util.ArrayList<>();
    for (String name : policies) {
      policy = name;
      policyParams = byPolicy.get(name);
      outcomes.add(simulate());
    }
    if (chart != null) {
      java.util.List<DesCharts.Labelled> all = new java.util.ArrayList<>();
      outcomes.forEach(o -> all.addAll(labelled(o, o.policy())));
      DesCharts.write(chart, chartName, String.join(" vs ", policies), all);
    }
    printComparison(outcomes);
    return 0;
  }

  /** One policy's phases. */
  private record Outcome(String policy, Map<String, String> parameters, DesSetup setup,
      DesPhaseResult testing, java.util.List<DesPhaseResult> runs, double seconds) {}

  private static java.util.List<DesCharts.Labelled> labelled(Outcome o, String policy) {
    java.util.List<DesCharts.Labelled> l = new java.util.ArrayList<>();
    String prefix = policy == null ? "" : policy + " ";
    if (o.testing() != null) {
      l.add(new DesCharts.Labelled(prefix + o.testing().phase() + " " + o.testing().scheduler(),
          o.testing()));
    }
    for (DesPhaseResult r : o.runs()) {
      l.add(new DesCharts.Labelled(prefix + r.phase() + " " + r.scheduler(), r));
    }
    return l;
  }

  /** Runs the phases of {@link #policy} with {@link #policyParams}. */
  private Outcome simulate() {
    DesSetup setup = new DesSetup(entries, (int) size("--entry-size", entrySize),
        size("--memory-component", memoryComponent), memoryComponents,
        size("--bandwidth", bandwidth), (int) size("--page-size", pageSize), memoryWriteRate,
        constraint, admission, (double) size("--write-rate", writeRate)
            / size("--entry-size", entrySize), slowdownAt);
    NamedPlugin pol = new NamedPlugin(policy, policyParams);
    java.util.List<String> schedulers = compare.isEmpty() ? java.util.List.of(scheduler)
        : compare;
    java.util.List<DiscreteEventSimulator> sims = new java.util.ArrayList<>();
    for (String name : schedulers) {
      sims.add(DiscreteEventSimulator.of(setup, pol, new NamedPlugin(name, schedulerParams)));
    }
    long start = System.nanoTime();
    int steps = (phase.equals("running") ? 0 : 1) + (phase.equals("testing") ? 0 : sims.size());
    int[] step = {0};
    java.util.function.Consumer<String> starting = what -> {
      // one line per simulated phase on stderr: a run takes from seconds to minutes
      double elapsed = (System.nanoTime() - start) / 1e9;
      PrintWriter err = spec.commandLine().getErr();
      err.printf(java.util.Locale.ROOT, "des: %s: %s (%d of %d)%s%n", policy, what, ++step[0],
          steps, step[0] == 1 ? "" : String.format(java.util.Locale.ROOT,
              ", %.0f s so far, about %.0f s left", elapsed,
              elapsed / (step[0] - 1) * (steps - step[0] + 1)));
      err.flush();
    };
    DesPhaseResult testing = null;
    if (!phase.equals("running")) {
      starting.accept("testing phase, " + testingScheduler + " scheduler");
      testing = DiscreteEventSimulator.of(setup, pol, new NamedPlugin(testingScheduler,
          Map.of())).testing(duration);
    }
    java.util.List<DesPhaseResult> runs = new java.util.ArrayList<>();
    if (!phase.equals("testing")) {
      for (int i = 0; i < sims.size(); i++) {
        starting.accept("running phase, " + schedulers.get(i) + " scheduler");
        runs.add(sims.get(i).running(duration, arrivalProcess(testing)));
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return new Outcome(policy, policyParams, setup, testing, runs, seconds);
  }

  /** Several policies: each one's block as for one policy, then one table of all of them. */
  private void printComparison(java.util.List<Outcome> outcomes) throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode o = StatsJson.MAPPER.createObjectNode();
      com.fasterxml.jackson.databind.node.ArrayNode ps = o.putArray("policies");
      for (Outcome oc : outcomes) {
        policy = oc.policy();
        policyParams = oc.parameters();
        ps.add(StatsJson.MAPPER.readTree(render(oc.setup(), oc.testing(), oc.runs(),
            oc.seconds())));
      }
      out.println(StatsJson.MAPPER.writeValueAsString(o));
      out.flush();
      return;
    }
    for (Outcome oc : outcomes) {
      out.println("== " + oc.policy() + " " + oc.parameters());
      policy = oc.policy();
      policyParams = oc.parameters();
      print(oc.setup(), oc.testing(), oc.runs(), oc.seconds());
    }
    int width = Math.max(6, policies.stream().mapToInt(String::length).max().orElse(6));
    out.printf("%n%-" + width + "s %12s %10s %12s %9s %12s %12s %10s %6s%n", "policy",
        "testing max", "scheduler", "arrivals/s", "stalls", "stalled s", "write p99 ms",
        "max comps", "WA");
    for (Outcome oc : outcomes) {
      String max = oc.testing() == null ? "-" : String.format(java.util.Locale.ROOT, "%,.0f",
          oc.testing().maxThroughput());
      if (oc.runs().isEmpty()) {
        out.printf("%-" + width + "s %12s %10s %12s %9d %12.1f %12s %10d %6.2f%n", oc.policy(),
            max, oc.testing().scheduler(), "-", oc.testing().stallCount(),
            oc.testing().stallSeconds(), "-", oc.testing().maxDiskComponents(),
            oc.testing().writeAmplification());
      }
      for (DesPhaseResult r : oc.runs()) {
        out.printf("%-" + width + "s %12s %10s %,12.0f %9d %12.1f %12s %10d %6.2f%n",
            oc.policy(), max, r.scheduler(), r.arrivalRate(), r.stallCount(), r.stallSeconds(),
            ms(r.writeLatency().p99()), r.maxDiskComponents(), r.writeAmplification());
      }
    }
    out.flush();
  }

  private ArrivalProcess arrivalProcess(DesPhaseResult testing) {
    if (burst != null) {
      return ArrivalProcess.bursts(ArrivalProcess.Burst.parseAll(burst));
    }
    double r;
    if (rate != null) {
      r = rate;
    } else {
      double max = testing != null ? testing.maxThroughput() : maxThroughput;
      r = utilization * max;
    }
    if (!(r > 0)) {
      throw usage("the running arrival rate must be positive, got " + r);
    }
    return arrivals.equals("poisson") ? ArrivalProcess.poisson(r, seed)
        : ArrivalProcess.constant(r);
  }

  private long size(String option, String text) {
    try {
      return Quantities.bytes(option, text);
    } catch (RuntimeException e) {
      throw usage(e.getMessage());
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  private void writeSeries(DesPhaseResult testing, java.util.List<DesPhaseResult> runs)
      throws IOException {
    Path parent = series.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Path tmp = series.resolveSibling(series.getFileName() + ".tmp");
    try (BufferedWriter w = Files.newBufferedWriter(tmp)) {
      w.write("phase,scheduler,second,arrivals,completed,queue,diskComponents,stalledSeconds,"
          + "bytesFlushed,bytesMerged\n");
      java.util.List<DesPhaseResult> all = new java.util.ArrayList<>();
      if (testing != null) {
        all.add(testing);
      }
      all.addAll(runs);
      for (DesPhaseResult r : all) {
        for (SecondSample s : r.series()) {
          w.write(String.format(java.util.Locale.ROOT, "%s,%s,%d,%d,%d,%d,%d,%.3f,%.0f,%.0f%n",
              r.phase(), r.scheduler(), s.second(), s.arrivals(), s.completed(), s.queue(),
              s.diskComponents(), s.stalledSeconds(), s.bytesFlushed(), s.bytesMerged()));
        }
      }
    }
    Files.move(tmp, series, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private void print(DesSetup setup, DesPhaseResult testing, java.util.List<DesPhaseResult> runs,
      double seconds) throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(render(setup, testing, runs, seconds));
    } else {
      printText(out, testing, runs, seconds);
    }
    out.flush();
  }

  /** The JSON object of one policy's run, as a string. */
  private String render(DesSetup setup, DesPhaseResult testing, java.util.List<DesPhaseResult> runs,
      double seconds) throws IOException {
    {
      ObjectNode o = StatsJson.MAPPER.createObjectNode();
      ObjectNode s = o.putObject("setup");
      s.put("policy", policy);
      ObjectNode ps = s.putObject("parameters");
      policyParams.forEach(ps::put);
      s.put("scheduler", scheduler);
      s.put("testingScheduler", testingScheduler);
      s.put("entries", setup.entries());
      s.put("entrySize", setup.entrySize());
      s.put("memoryComponentBytes", setup.memoryComponentBytes());
      s.put("memoryComponents", setup.memoryComponents());
      s.put("bandwidth", setup.bandwidth());
      s.put("constraint", setup.constraint());
      s.put("admission", setup.admission());
      s.put("duration", duration);
      if (testing != null) {
        ObjectNode t = phaseJson(o.putObject("testing"), testing);
        t.put("maxThroughput", testing.maxThroughput());
      }
      if (!runs.isEmpty()) {
        runningJson(o.putObject("running"), runs.get(0));
      }
      if (!compare.isEmpty() && !runs.isEmpty()) {
        com.fasterxml.jackson.databind.node.ArrayNode cmp = o.putArray("comparison");
        for (DesPhaseResult run : runs) {
          runningJson(cmp.addObject(), run);
        }
      }
      o.put("elapsedSeconds", seconds);
      return StatsJson.MAPPER.writeValueAsString(o);
    }
  }

  private void printText(PrintWriter out, DesPhaseResult testing,
      java.util.List<DesPhaseResult> runs, double seconds) {
    {
      if (testing != null) {
        out.printf("testing (%s, closed loop, %.0f s): maxThroughput %.1f writes/s (first sixth"
            + " excluded), stalls %d (%.1f s), max disk components %d, write amplification"
            + " %.2f%n", testing.scheduler(), testing.duration(), testing.maxThroughput(),
            testing.stallCount(), testing.stallSeconds(), testing.maxDiskComponents(),
            testing.writeAmplification());
      }
      for (DesPhaseResult run : runs) {
        LatencySummary w = run.writeLatency();
        LatencySummary p = run.processingLatency();
        out.printf("running (%s, %.1f writes/s, %.0f s): stalls %d (%.1f s, longest %.1f s),"
            + " max disk components %d%n", run.scheduler(), run.arrivalRate(), run.duration(),
            run.stallCount(), run.stallSeconds(), run.longestStallSeconds(),
            run.maxDiskComponents());
        out.printf("  write latency (ms):      p50 %s  p90 %s  p99 %s  p99.9 %s  max %s%n",
            ms(w.p50()), ms(w.p90()), ms(w.p99()), ms(w.p999()), ms(w.max()));
        out.printf("  processing latency (ms): p50 %s  p90 %s  p99 %s  p99.9 %s  max %s%n",
            ms(p.p50()), ms(p.p90()), ms(p.p99()), ms(p.p999()), ms(p.max()));
        if (run.queuedAtEnd() > run.arrivalRate() * 10) {
          out.printf("  %d writes still queued at the end (more than 10 s of arrivals): the"
              + " rate is not sustainable%n", run.queuedAtEnd());
        }
      }
      out.printf("(simulated in %.1f s)%n", seconds);
    }
  }

  private static ObjectNode phaseJson(ObjectNode n, DesPhaseResult r) {
    n.put("scheduler", r.scheduler());
    n.put("duration", r.duration());
    n.put("writes", r.writesCompleted());
    ObjectNode st = n.putObject("stalls");
    st.put("count", r.stallCount());
    st.put("seconds", r.stallSeconds());
    st.put("longestSeconds", r.longestStallSeconds());
    st.put("memory", r.memoryStalls());
    st.put("constraint", r.constraintStalls());
    n.put("maxDiskComponents", r.maxDiskComponents());
    n.put("maxFlushedComponents", r.maxFlushedComponents());
    n.put("writeAmplification", r.writeAmplification());
    n.put("merges", r.merges().size());
    // How many runs each merge took (Luo & Carey's greedy assumes the same number every time).
    java.util.TreeMap<Integer, Integer> widths = new java.util.TreeMap<>();
    for (MergeLogEntry m : r.merges()) {
      widths.merge(m.inputRuns(), 1, Integer::sum);
    }
    ObjectNode inputs = n.putObject("mergeInputs");
    widths.forEach((runs, count) -> inputs.put(Integer.toString(runs), count));
    n.put("rejectedMerges", r.rejectedMerges());
    return n;
  }

  private static void runningJson(ObjectNode r, DesPhaseResult run) {
    phaseJson(r, run);
    r.put("arrivalRate", run.arrivalRate());
    latency(r.putObject("writeLatency"), run.writeLatency());
    latency(r.putObject("processingLatency"), run.processingLatency());
    r.put("queuedAtEnd", run.queuedAtEnd());
  }

  /** Latency in milliseconds, as every Strata report gives it. */
  private static void latency(ObjectNode n, LatencySummary l) {
    n.put("count", l.count());
    n.put("mean", l.mean() * 1000);
    n.put("p50", l.p50() * 1000);
    n.put("p90", l.p90() * 1000);
    n.put("p99", l.p99() * 1000);
    n.put("p99.9", l.p999() * 1000);
    n.put("max", l.max() * 1000);
  }

  /** Seconds printed as milliseconds with three significant decimals for small values. */
  static String ms(double seconds) {
    double v = seconds * 1000;
    return String.format(java.util.Locale.ROOT, v >= 100 ? "%,.0f" : "%.3f", v);
  }
}
