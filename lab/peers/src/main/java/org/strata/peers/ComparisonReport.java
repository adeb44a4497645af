package org.strata.peers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.strata.twophase.IoBudgetUse;
import org.strata.twophase.Latency;
import org.strata.twophase.LookupResult;
import org.strata.twophase.MachineInfo;
import org.strata.twophase.PhaseResult;
import org.strata.twophase.ProcessUse;
import org.strata.twophase.ReportWriter;
import org.strata.twophase.TwoPhaseResult;

/**
 * Writes a comparison: {@code comparison.json} (per system: {@code system}, {@code label}, {@code
 * load.recordsPerSecond}, {@code testing.maxThroughput}, {@code running.arrivalRate}, {@code
 * running.throughput}, {@code running.writeLatency} {p50, p99, p99.9, max} in ms, {@code
 * running.arrivalLagMaxMillis}, {@code running.stalls.seconds}, {@code running.backlogAtEnd},
 * {@code writeAmplification}, {@code spaceAmplification}, {@code meanSpaceAmplification}, {@code
 * sustainable} {verdict, reasons}, and each figure's ratio to the first system), and {@code
 * comparison.md} (one table with the ratios, the charts of {@link ComparisonCharts}, the machine,
 * and which figures to quote).
 */
public final class ComparisonReport {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private ComparisonReport() {}

  /** The running phase a comparison reports for a system: the first, or 95% of the rate found. */
  static PhaseResult running(CompareRunner.Outcome o) {
    if (o.search() != null) {
      return o.search().at95();
    }
    return o.result().runs().isEmpty() ? null : o.result().runs().get(0);
  }

  /**
   * Space amplification at the end of the phase the table's running columns come from (with
   * {@code --find-sustainable}, the phase at 95% of the sustainable rate, not the first rate the
   * search tried), or after loading when there is none.
   */
  private static double spaceAmplification(CompareRunner.Outcome o) {
    PhaseResult p = running(o);
    return p == null ? o.result().spaceAmplification() : o.result().spaceAmplificationAt(p);
  }

  /**
   * Space amplification averaged over the same phase (its per-second samples), or null without a
   * running phase.
   */
  private static Double meanSpaceAmplification(CompareRunner.Outcome o) {
    PhaseResult p = running(o);
    double m = p == null ? Double.NaN : o.result().meanSpaceAmplificationAt(p);
    return Double.isNaN(m) ? null : m;
  }

  /** {@code figure} of what an outcome's loading process spent, or null where it is unknown. */
  private static Double loadProcess(CompareRunner.Outcome o,
      java.util.function.ToDoubleFunction<ProcessUse> figure) {
    ProcessUse u = o.result().loadProcess();
    return u == null ? null : figure.applyAsDouble(u);
  }

  /** The figures of the table, in order, each from an outcome (null when it has none). */
  private static Map<String, Function<CompareRunner.Outcome, Double>> figures(
      CompareConfig config, CompareRunner.Mode mode) {
    Map<String, Function<CompareRunner.Outcome, Double>> f = new LinkedHashMap<>();
    if (mode == CompareRunner.Mode.LOOKUP) {
      f.put("data/cache", o -> o.result().lookups().dataToCache());
      for (int t : config.lookup().threads()) {
        String n = t == 1 ? "1 thread" : t + " threads";
        f.put("gets/s " + n, o -> run(o, t) == null ? null : run(o, t).getsPerSecond());
        f.put("p50 ms " + n, o -> run(o, t) == null ? null : run(o, t).latency().p50());
        f.put("p99 ms " + n, o -> run(o, t) == null ? null : run(o, t).latency().p99());
        f.put("max ms " + n, o -> run(o, t) == null ? null : run(o, t).latency().max());
        f.put("hit ratio " + n, o -> run(o, t) == null || Double.isNaN(run(o, t)
            .cacheHitRatio()) ? null : run(o, t).cacheHitRatio());
      }
      return f;
    }
    f.put("load rec/s", o -> o.result().loadRecordsPerSecond());
    if (mode == CompareRunner.Mode.LOAD) {
      f.put("fill rec/s", o -> Double.isNaN(o.result().fillRecordsPerSecond()) ? null
          : o.result().fillRecordsPerSecond());
      f.put("load s", o -> o.result().loadSeconds());
      f.put("CPU s per M records", o -> loadProcess(o,
          u -> u.cpuSecondsPerMillion(o.result().config().load().records())));
      f.put("user s", o -> loadProcess(o, ProcessUse::userSeconds));
      f.put("system s", o -> loadProcess(o, ProcessUse::systemSeconds));
      f.put("peak RSS MiB", o -> loadProcess(o, u -> u.peakRssBytes() / 1048576.0));
      f.put("disk components", o -> (double) o.result().loadedDiskComponents());
      f.put("space amp.", o -> o.result().spaceAmplification());
      return f;
    }
    f.put("testing max W", o -> o.result().testing().throughput());
    f.put("I/O budget use", o -> {
      double u = o.result().testing().ioBudget().use();
      return Double.isNaN(u) ? null : u;
    });
    if (mode == CompareRunner.Mode.FIND_SUSTAINABLE) {
      f.put("sustainable rate", o -> o.search().sustainable());
    }
    f.put("arrivals/s", o -> running(o) == null ? null : running(o).arrivalRate());
    f.put("served/s", o -> running(o) == null ? null : running(o).throughput());
    f.put("write p50 ms", o -> running(o) == null ? null : running(o).writeLatency().p50());
    f.put("p99 ms", o -> running(o) == null ? null : running(o).writeLatency().p99());
    f.put("p99.9 ms", o -> running(o) == null ? null : running(o).writeLatency().p999());
    f.put("max ms", o -> running(o) == null ? null : running(o).writeLatency().max());
    f.put("arrival lag max ms", o -> running(o) == null
        || Double.isNaN(running(o).arrivalLagMaxMillis()) ? null
        : running(o).arrivalLagMaxMillis());
    f.put("stalled s", o -> running(o) == null ? null : running(o).stallSeconds());
    f.put("queued at end", o -> running(o) == null ? null : (double) running(o).queueAtEnd());
    f.put("WA", o -> running(o) == null ? null : running(o).writeAmplification());
    f.put("SA", o -> spaceAmplification(o));
    f.put("SA mean", o -> meanSpaceAmplification(o));
    return f;
  }

  private static LookupResult.Run run(CompareRunner.Outcome o, int threads) {
    return o.result().lookups().run(threads);
  }

  /** Writes comparison.json, comparison.md and the charts into {@code dir}. */
  public static void write(Path dir, CompareConfig config, CompareRunner.Mode mode,
      List<CompareRunner.Outcome> outcomes) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("comparison.json"),
        MAPPER.writeValueAsString(json(config, mode, outcomes)) + "\n");
    List<String> charts = mode == CompareRunner.Mode.LOAD || mode == CompareRunner.Mode.LOOKUP
        ? List.of()
        : ComparisonCharts.write(dir, config.twoPhase(), outcomes);
    Files.writeString(dir.resolve("comparison.md"), markdown(config, mode, outcomes, charts));
  }

  /** The machine of the whole comparison: the first run's, with the last run's end load. */
  static MachineInfo machine(List<CompareRunner.Outcome> outcomes) {
    MachineInfo first = outcomes.get(0).result().machine();
    MachineInfo last = outcomes.get(outcomes.size() - 1).result().machine();
    return new MachineInfo(first.cores(), first.memoryTotalBytes(), first.memoryAvailableBytes(),
        first.fileSystem(), first.jvm(), first.jvmOptions(), first.loadBefore(),
        last.loadAfter(), outcomes.stream().mapToLong(o -> o.result().machine().dataBytes())
            .max().orElse(-1), first.maxHeapBytes(), first.garbageCollectors());
  }

  /**
   * The storage device each system ran on: a Strata system on the device model its store
   * configuration names (docs/configuration.md, "Device"), or on the machine's file system; a
   * peer always on the machine's file system (the model is Strata's).
   */
  static String devices(List<CompareRunner.Outcome> outcomes) {
    List<String> parts = new java.util.ArrayList<>();
    for (CompareRunner.Outcome x : outcomes) {
      TwoPhaseResult r = x.result();
      org.strata.lsm.config.DeviceConfig d = r.system().startsWith("strata")
          ? r.config().dataset().store().device() : null;
      parts.add(r.label() + ": " + (d != null ? "device model " + d.describe()
          : "the machine's own file system" + (r.system().startsWith("strata") ? ""
          : " (the device model is Strata's only)")));
    }
    return "Devices: " + String.join("; ", parts) + ".";
  }

  static ObjectNode json(CompareConfig config, CompareRunner.Mode mode,
      List<CompareRunner.Outcome> outcomes) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("name", config.twoPhase().name());
    o.put("mode", mode.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    o.put("quote", quote(mode, outcomes));
    if (mode == CompareRunner.Mode.LOOKUP) {
      ObjectNode l = o.putObject("lookup");
      l.put("durationSeconds", config.lookup().durationSeconds());
      l.put("warmupSeconds", config.lookup().warmupSeconds());
      config.lookup().threads().forEach(l.putArray("threads")::add);
    }
    o.set("machine", machine(outcomes).json());
    o.put("devices", devices(outcomes));
    ArrayNode systems = o.putArray("systems");
    Map<String, Function<CompareRunner.Outcome, Double>> figures = figures(config, mode);
    CompareRunner.Outcome first = outcomes.get(0);
    for (CompareRunner.Outcome x : outcomes) {
      TwoPhaseResult r = x.result();
      ObjectNode s = systems.addObject();
      s.put("system", r.system());
      s.put("label", r.label());
      s.put("description", r.description());
      s.put("report", r.label() + "/report.md");
      ObjectNode load = s.putObject("load");
      load.put("records", r.config().load().records());
      load.put("seconds", r.loadSeconds());
      if (!Double.isNaN(r.fillSeconds())) {
        load.put("fillSeconds", r.fillSeconds());
      }
      if (r.loadProcess() != null) {
        load.set("process", r.loadProcess().json());
      }
      load.put("recordsPerSecond", r.loadRecordsPerSecond());
      load.put("diskComponents", r.loadedDiskComponents());
      load.put("verifiedKeys", r.verifiedKeys());
      load.set("gc", r.loadGc().json());
      if (r.testing() != null) {
        ObjectNode testing = s.putObject("testing").put("maxThroughput",
            r.testing().throughput()).put("scheduler", r.testing().scheduler());
        testing.set("ioBudgetUse", r.testing().ioBudget().json());
        testing.set("gc", r.testing().gc().json());
      }
      PhaseResult p = running(x);
      if (p != null) {
        ObjectNode run = s.putObject("running");
        run.put("name", p.name());
        run.put("arrivalRate", p.arrivalRate());
        run.put("throughput", p.throughput());
        Latency l = p.writeLatency();
        run.putObject("writeLatency").put("p50", l.p50()).put("p99", l.p99())
            .put("p99.9", l.p999()).put("max", l.max());
        if (!Double.isNaN(p.arrivalLagMaxMillis())) {
          run.put("arrivalLagMaxMillis", p.arrivalLagMaxMillis());
        }
        run.putObject("stalls").put("count", p.stallCount()).put("seconds", p.stallSeconds());
        ObjectNode backlog = run.putObject("backlogAtEnd");
        backlog.put("queuedWrites", p.queueAtEnd());
        backlog.put("unfinishedWrites", p.unfinished());
        backlog.put("pendingMergeBytes", p.pendingMergeBytesAtEnd());
        run.put("maxDiskComponents", p.maxDiskComponents());
        run.set("ioBudgetUse", p.ioBudget().json());
        run.set("gc", p.gc().json());
        s.put("writeAmplification", p.writeAmplification());
        s.set("sustainable", ReportWriter.verdictJson(p.verdict()));
      }
      s.put("spaceAmplification", spaceAmplification(x));
      Double mean = meanSpaceAmplification(x);
      if (mean != null) {
        s.put("meanSpaceAmplification", mean);
      }
      if (r.lookups() != null) {
        s.set("lookups", r.lookups().json());
      }
      if (x.search() != null) {
        s.set("sustainableRate", ReportWriter.searchJson(x.search()));
      }
      ObjectNode ratios = s.putObject("ratioToFirst");
      figures.forEach((name, f) -> {
        Double a = f.apply(x);
        Double b = f.apply(first);
        if (a != null && b != null && b != 0) {
          ratios.put(name, a / b);
        }
      });
    }
    return o;
  }

  static String quote(CompareRunner.Mode mode, List<CompareRunner.Outcome> outcomes) {
    if (mode == CompareRunner.Mode.LOOKUP) {
      return "Quote each system's gets/s and get latency per thread count and their ratios to the"
          + " first system, with the data-to-cache ratio they were measured at; every get"
          + " returned its loaded value.";
    }
    if (mode == CompareRunner.Mode.LOAD) {
      return "Quote the load rates (records/s) and their ratios to the first system; they say"
          + " nothing about sustained updates.";
    }
    if (mode == CompareRunner.Mode.FIND_SUSTAINABLE) {
      return "Quote each system's highest sustainable rate and its write p99 at 95% of that rate;"
          + " not the testing maxima.";
    }
    List<String> ok = new ArrayList<>();
    List<String> not = new ArrayList<>();
    for (CompareRunner.Outcome o : outcomes) {
      PhaseResult p = running(o);
      (p != null && p.verdict().sustainable() ? ok : not).add(o.result().label());
    }
    return "Quote a system's running-phase throughput and latency only where its verdict is"
        + " sustainable (" + (ok.isEmpty() ? "none" : String.join(", ", ok)) + "), and then as"
        + " sustained for the running phase's length only. For the others ("
        + (not.isEmpty() ? "none" : String.join(", ", not)) + ") the testing maximum is not"
        + " sustainable: quote the highest sustainable rate from --find-sustainable instead.";
  }

  static String markdown(CompareConfig config, CompareRunner.Mode mode,
      List<CompareRunner.Outcome> outcomes, List<String> charts) {
    StringBuilder b = new StringBuilder();
    b.append("# Comparison: ").append(config.twoPhase().name()).append("\n\n");
    if (!config.twoPhase().description().isEmpty()) {
      b.append(config.twoPhase().description()).append("\n\n");
    }
    b.append("**").append(quote(mode, outcomes)).append("**\n\n");
    b.append(machine(outcomes).describe()).append("\n\n");
    b.append(devices(outcomes)).append("\n\n");
    b.append("Same driver, same keys and value bytes, same arrival process and sampler for every"
        + " system, one after another on fresh directories. Each cell gives the figure and, in"
        + " parentheses, its ratio to the first system (").append(outcomes.get(0).result()
        .label()).append(").\n\n");
    Map<String, Function<CompareRunner.Outcome, Double>> figures = figures(config, mode);
    boolean verdicts = mode == CompareRunner.Mode.ALL
        || mode == CompareRunner.Mode.FIND_SUSTAINABLE;
    b.append("## Summary\n\n");
    Map<String, Function<CompareRunner.Outcome, Double>> key = new LinkedHashMap<>();
    for (String k : summaryColumns(config, mode)) {
      key.put(k, figures.get(k));
    }
    table(b, key, outcomes, verdicts);
    b.append("\n## All figures\n\n");
    table(b, figures, outcomes, verdicts);
    b.append(gcTable(outcomes));
    b.append("\n## Systems\n\n");
    for (CompareRunner.Outcome o : outcomes) {
      TwoPhaseResult r = o.result();
      b.append("- **").append(r.label()).append("**: ").append(r.description())
          .append(r.verifiedKeys() > 0 ? String.format(Locale.ROOT,
              ". Loaded %,d records, read all %,d back.", r.config().load().records(),
              r.verifiedKeys()) : ". Not read back.");
      PhaseResult p = running(o);
      if (p != null) {
        b.append(" Verdict: ").append(p.verdict().word()).append(": ")
            .append(String.join("; ", p.verdict().reasons())).append('.');
      }
      if (o.search() != null) {
        b.append(' ').append(o.search().quote());
      }
      if (r.testing() != null) {
        b.append(throttleNote(r.testing().ioBudget()));
      }
      b.append(" Report: [").append(r.label()).append("/report.md](").append(r.label())
          .append("/report.md)\n");
    }
    if (!charts.isEmpty()) {
      b.append("\n## Charts (running phase")
          .append(mode == CompareRunner.Mode.FIND_SUSTAINABLE ? " at 95% of the sustainable rate"
              : "").append(", shared axes)\n\n");
      for (String c : charts) {
        b.append("![").append(c).append("](").append(c).append(")\n\n");
      }
    }
    if (mode == CompareRunner.Mode.LOOKUP) {
      b.append(String.format(Locale.ROOT, "%nColumns: data/cache (the loaded data on disk over"
              + " the configured cache: Strata's page cache, RocksDB's LRU block cache), then per"
              + " thread count gets/s (random gets of loaded keys for %d s, each checked against"
              + " its loaded value), the latency of one get, and the cache hit ratio (Strata's"
              + " page cache; RocksDB's BLOCK_CACHE_HIT over hits and misses; '-' where the"
              + " system does not report it). docs/compare.md gives the mapping.%n",
          config.lookup().durationSeconds()));
      return b.toString();
    }
    if (mode == CompareRunner.Mode.LOAD) {
      b.append("Columns: load rec/s (records loaded per second, unthrottled, until the last"
          + " flush and merge finished; for rocksdb-native, until its last flush or compaction"
          + " ended by RocksDB's LOG, from the process's start), fill rec/s (until the last"
          + " write returned, background work possibly still"
          + " running: db_bench's own figure), load s, then what the loading process spent on the"
          + " load"
          + " by the operating system's accounting (/proc): CPU s per M records (user and system"
          + " CPU over the records, in millions), user s, system s, peak RSS MiB (the largest"
          + " resident set: for the systems in this JVM, from the load's start, the driver and"
          + " the JVM's touched heap included; for rocksdb-native, db_bench's own process), disk"
          + " components and space amplification after the load. docs/compare.md says where"
          + " each system's figures come from.\n");
      return b.toString();
    }
    b.append("Columns: load rec/s (records loaded per second, unthrottled), testing max W"
        + " (closed-loop writes/s after the warm-up), I/O budget use (bytes flushed and merged"
        + " per second over the write-rate limit, in the testing phase after its warm-up),"
        + " arrivals/s and served/s of the running"
        + " phase, write latency from the intended arrival, arrival lag max (the most the"
        + " driver's generator was late putting a write on the queue: part of the write latency,"
        + " so a lag near the write maximum means the whole process stood still, not the store"
        + " alone), stalled s (seconds writers were"
        + " stalled), queued at end (writes waiting when arrivals stopped), WA (write"
        + " amplification: bytes flushed and merged over user bytes), SA (space amplification:"
        + " disk bytes over the loaded key and value bytes, at the end of the running phase),"
        + " SA mean (the same averaged over the running phase's seconds, which does not depend"
        + " on where the phase ends in a merge cycle). docs/compare.md says where each"
        + " system's figures come from.\n");
    return b.toString();
  }

  /** Every system's collector pauses and peak heap per phase, as a markdown section. */
  /** The few columns of the summary table, each one of {@link #figures}. */
  static List<String> summaryColumns(CompareConfig config, CompareRunner.Mode mode) {
    return switch (mode) {
      case LOAD -> List.of("load rec/s", "CPU s per M records", "peak RSS MiB");
      case LOOKUP -> {
        int t = config.lookup().threads().get(0);
        String n = t == 1 ? "1 thread" : t + " threads";
        yield List.of("gets/s " + n, "p99 ms " + n);
      }
      case FIND_SUSTAINABLE -> List.of("testing max W", "sustainable rate", "p99 ms");
      default -> List.of("testing max W", "served/s", "p99 ms", "stalled s", "queued at end");
    };
  }

  /**
   * A table of {@code figures}, one row per system; each cell the figure and, after the first
   * row, its ratio to the first system's.
   */
  private static void table(StringBuilder b, Map<String, Function<CompareRunner.Outcome, Double>>
      figures, List<CompareRunner.Outcome> outcomes, boolean verdicts) {
    b.append("| system |");
    figures.keySet().forEach(k -> b.append(' ').append(k).append(" |"));
    if (verdicts) {
      b.append(" verdict |");
    }
    b.append("\n|---|");
    figures.keySet().forEach(k -> b.append("---:|"));
    if (verdicts) {
      b.append("---|");
    }
    b.append('\n');
    CompareRunner.Outcome first = outcomes.get(0);
    for (CompareRunner.Outcome o : outcomes) {
      b.append("| ").append(o.result().label()).append(" |");
      figures.forEach((k, f) -> {
        Double v = f.apply(o);
        Double base = f.apply(first);
        if (v == null) {
          b.append(" - |");
        } else {
          b.append(' ').append(figure(v));
          if (base != null && base != 0 && o != first) {
            double ratio = v / base;
            b.append(ratio >= 10 ? String.format(Locale.ROOT, " (%,.0fx)", ratio)
                : String.format(Locale.ROOT, " (%.2fx)", ratio));
          }
          b.append(" |");
        }
      });
      if (verdicts) {
        PhaseResult p = running(o);
        b.append(' ').append(p == null ? "none sustainable" : p.verdict().word()).append(" |");
      }
      b.append('\n');
    }
  }

  static String gcTable(List<CompareRunner.Outcome> outcomes) {
    MachineInfo m = machine(outcomes);
    StringBuilder b = new StringBuilder("\n## Collector pauses and peak heap\n\n");
    b.append(String.format(Locale.ROOT, "Collectors %s, maximum heap %.0f MiB (the same JVM runs"
            + " every system, one after another). Every stop-the-world pause, from JFR's"
            + " jdk.GCPhasePause events, in ms (nearest-rank percentiles); peak heap is the most"
            + " heap used before any collection or at the phase's start or end. RocksDB keeps its"
            + " memtables and block cache in native memory, so its figures cover only the JVM side"
            + " of the driver.%n%n",
        String.join(", ", m.garbageCollectors()), m.maxHeapBytes() / 1048576.0));
    b.append("| system | phase | pauses | p50 ms | p99 ms | max ms | total ms | peak heap MiB |\n"
        + "|---|---|---|---|---|---|---|---|\n");
    for (CompareRunner.Outcome o : outcomes) {
      String label = o.result().label();
      b.append("| ").append(label).append(' ').append(o.result().loadGc().row("load"));
      if (o.result().testing() != null) {
        b.append("| ").append(label).append(' ').append(o.result().testing().gc().row("testing"));
      }
      PhaseResult p = running(o);
      if (p != null) {
        b.append("| ").append(label).append(' ').append(p.gc().row(p.name()));
      }
    }
    return b.toString();
  }

  /** A figure as the report prints it: grouped thousands, one decimal from 10, 3 digits below. */
  public static String figure(double v) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    double a = Math.abs(v);
    if (a >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, "%.3g", v);
  }

  /**
   * When a system's own throttle held its flush and merge writers for most of the testing
   * window while it used less than 90% of the budget, says so: the throttle, not the budget or
   * the system's work, bounded its background writes (Hyracks reports the time; docs/compare.md).
   */
  static String throttleNote(IoBudgetUse use) {
    Long nanos = use.budgetCounters().get(HYRACKS_THROTTLE_WAIT);
    int window = use.toSecond() - use.fromSecond();
    if (nanos == null || window <= 0 || Double.isNaN(use.use()) || use.use() >= 0.9
        || nanos / 1e9 < 0.5 * window) {
      return "";
    }
    return String.format(Locale.ROOT, " I/O budget: %.2f of it used in the testing phase while"
        + " its flush and merge threads spent %.1f s (summed) of the %d s window inside its own"
        + " page-write throttle: the throttle admitted less than the rate it was given"
        + " (docs/compare.md, \"Hyracks' throttle\").", use.use(), nanos / 1e9, window);
  }

  /** The budget counter of the time Hyracks' page writers spent in its throttle. */
  static final String HYRACKS_THROTTLE_WAIT = "throttleWaitNanos";
}
