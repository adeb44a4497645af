package org.strata.twophase;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.strata.lsm.config.Quantities;

/**
 * Writes a two-phase run's outputs: {@code summary.json}, {@code timeseries.csv}, the charts and
 * {@code report.md} (the HdrHistogram {@code .hlog} files are written while the phases run).
 */
public final class ReportWriter {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private ReportWriter() {}

  /** Writes every output into {@code dir}. */
  public static void write(Path dir, TwoPhaseResult result) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("summary.json"),
        MAPPER.writeValueAsString(summary(result)) + "\n");
    if (result.testing() == null) {
      Files.writeString(dir.resolve("report.md"), markdown(result));
      return;
    }
    try (Writer w = Files.newBufferedWriter(dir.resolve("timeseries.csv"),
        StandardCharsets.UTF_8)) {
      w.write(PhaseSample.CSV_HEADER + "\n");
      for (PhaseSample s : result.testing().samples()) {
        w.write(s.csv() + "\n");
      }
      for (PhaseResult r : result.runs()) {
        for (PhaseSample s : r.samples()) {
          w.write(s.csv() + "\n");
        }
      }
    }
    TwoPhaseCharts.write(dir, result);
    Files.writeString(dir.resolve("report.md"), markdown(result));
  }

  /**
   * Writes a sustainable-rate search's outputs into {@code dir}: {@code sustainable.json}, {@code
   * timeseries.csv}, the charts and {@code report.md}.
   */
  public static void writeSearch(Path dir, SustainableRate search) throws IOException {
    Files.createDirectories(dir);
    TwoPhaseResult result = search.result();
    List<PhaseResult> all = new java.util.ArrayList<>(result.runs());
    if (search.at95() != null) {
      all.add(search.at95());
    }
    TwoPhaseResult withAt95 = new TwoPhaseResult(result.config(), result.system(),
        result.label(), result.description(), result.machine(), result.loadSeconds(),
        result.loadedDiskComponents(), result.loadedSpaceBytes(), result.liveDataBytes(),
        result.verifiedKeys(), result.testing(), all, result.loadGc(), null,
        result.loadProcess(), result.fillSeconds());
    Files.writeString(dir.resolve("sustainable.json"),
        MAPPER.writeValueAsString(searchJson(search)) + "\n");
    try (Writer w = Files.newBufferedWriter(dir.resolve("timeseries.csv"),
        StandardCharsets.UTF_8)) {
      w.write(PhaseSample.CSV_HEADER + "\n");
      for (PhaseSample s : result.testing().samples()) {
        w.write(s.csv() + "\n");
      }
      for (PhaseResult r : all) {
        for (PhaseSample s : r.samples()) {
          w.write(s.csv() + "\n");
        }
      }
    }
    TwoPhaseCharts.write(dir, withAt95);
    StringBuilder b = new StringBuilder();
    b.append("# Highest sustainable rate: ").append(result.config().name()).append(" on ")
        .append(result.label()).append("\n\n");
    b.append(result.description()).append(".\n\n");
    b.append(result.machine().describe()).append("\n\n");
    b.append("**").append(search.quote()).append("**\n\n");
    b.append(String.format(Locale.ROOT, "Testing phase: maximum write throughput %,.0f"
        + " writes/s. The search bisected the arrival rate between 0 and it with %d s running"
        + " phases on fresh copies of the loaded data until the bracket was within %.0f%%.%n%n",
        result.testing().throughput(), search.phaseSeconds(), search.tolerance() * 100));
    b.append("| rate tried (writes/s) | verdict | completed | queued at end | unfinished"
        + " | write p99 ms | max ms | stalls | why |\n|---|---|---|---|---|---|---|---|---|\n");
    for (PhaseResult r : all) {
      b.append(String.format(Locale.ROOT, "| %,.0f | %s | %,d | %,d | %,d | %.2f | %.2f | %d |"
              + " %s |%n", r.arrivalRate(), r.verdict().word(), r.completed(), r.queueAtEnd(),
          r.unfinished(), r.writeLatency().p99(), r.writeLatency().max(), r.stallCount(),
          String.join("; ", r.verdict().reasons()).replace("|", "/")));
    }
    b.append('\n').append(gcTable(withAt95));
    b.append("![write throughput](").append(TwoPhaseCharts.THROUGHPUT).append(")\n\n");
    b.append("![disk components](").append(TwoPhaseCharts.COMPONENTS).append(")\n\n");
    b.append("![pending merge bytes](").append(TwoPhaseCharts.PENDING).append(")\n\n");
    Files.writeString(dir.resolve("report.md"), b.toString());
  }

  /** A sustainable-rate search as JSON. */
  public static ObjectNode searchJson(SustainableRate search) {
    ObjectNode o = MAPPER.createObjectNode();
    TwoPhaseResult result = search.result();
    o.put("system", result.system());
    o.put("label", result.label());
    o.put("description", result.description());
    o.put("quote", search.quote());
    o.put("testingMaxThroughput", result.testing().throughput());
    o.put("phaseSeconds", search.phaseSeconds());
    o.put("tolerance", search.tolerance());
    o.put("highestSustainableRate", search.sustainable());
    o.put("lowestUnsustainableRate", search.unsustainable());
    ArrayNode tried = o.putArray("tried");
    for (PhaseResult r : result.runs()) {
      ObjectNode t = tried.addObject();
      t.put("rate", r.arrivalRate());
      t.put("sustainable", r.verdict().sustainable());
      r.verdict().reasons().forEach(t.putArray("reasons")::add);
      t.put("writeP99", r.writeLatency().p99());
      t.set("gc", r.gc().json());
    }
    if (search.at95() != null) {
      o.set("at95", phase(search.at95()));
    }
    o.set("machine", result.machine().json());
    o.set("config", TwoPhaseConfigJson.toJson(result.config()));
    return o;
  }

  /** One sentence on a phase's I/O budget use. */
  static String ioBudgetWords(IoBudgetUse u) {
    if (Double.isNaN(u.use())) {
      return String.format(Locale.ROOT, "Flushes and merges wrote %.1f MiB/s (no I/O limit was"
          + " set, so there is no budget use).", Quantities.mebibytes(u.bytesPerSecond()));
    }
    String s = String.format(Locale.ROOT, "**I/O budget use %.2f**: flushes and merges wrote"
            + " %.1f MiB/s (%.1f flushed + %.1f merged MiB over seconds %d-%d) of the %.1f MiB/s"
            + " limit.",
        u.use(), Quantities.mebibytes(u.bytesPerSecond()), Quantities.mebibytes(u.bytesFlushed()),
        Quantities.mebibytes(u.bytesMerged()), u.fromSecond() + 1, u.toSecond(),
        Quantities.mebibytes(u.limitBytesPerSecond()));
    if (IoBudgetUse.WRITTEN.equals(u.countedAs())) {
      s += String.format(Locale.ROOT, " Counted as written; counted by the flushes and merges"
          + " that completed in those seconds it is %.2f.", u.useCountedAtCompletion());
    }
    return s;
  }

  /** The sentence of a two-phase report that says which figure a reader should quote. */
  public static String quote(TwoPhaseResult result) {
    if (result.lookups() != null) {
      return "Quote the gets per second and get latency of each thread count; the load rate"
          + " here only prepared the data.";
    }
    if (result.testing() == null) {
      return String.format(Locale.ROOT, "Quote the load rate, %,.0f records/s; it says nothing"
          + " about sustained updates.", result.loadRecordsPerSecond());
    }
    if (result.runs().isEmpty()) {
      return "No running phase ran, so no rate is known to be sustainable: do not quote the"
          + " testing maximum as a sustainable throughput.";
    }
    PhaseResult r = result.runs().get(0);
    if (r.verdict().sustainable()) {
      return String.format(Locale.ROOT, "Quote %,.0f writes/s as sustained for %d s (the running"
              + " phase at %,.0f arrivals/s was sustainable) with write latency p99 %.2f ms; the"
              + " testing maximum (%,.0f writes/s) is an upper bound, and a longer running phase"
              + " (--find-sustainable) may still find this rate unsustainable.", r.throughput(),
          result.config().running().durationSeconds(), r.arrivalRate(), r.writeLatency().p99(),
          result.testing().throughput());
    }
    if (r.verdict().outcome() == Sustainability.Outcome.TOO_SHORT) {
      return String.format(Locale.ROOT, "Do not quote the testing maximum (%,.0f writes/s) or this"
              + " phase's rate: the running phase at %,.0f arrivals/s was too short to judge (%s)."
              + " Run a longer running phase (running.duration-seconds), or --find-sustainable"
              + " with longer --phase-seconds.", result.testing().throughput(), r.arrivalRate(),
          String.join("; ", r.verdict().reasons()));
    }
    return String.format(Locale.ROOT, "Do not quote the testing maximum (%,.0f writes/s): the"
            + " running phase at %,.0f arrivals/s was unsustainable (%s). Quote the highest"
            + " sustainable rate from --find-sustainable instead.", result.testing().throughput(),
        r.arrivalRate(), String.join("; ", r.verdict().reasons()));
  }

  /** The summary: the testing throughput, the first running phase, every phase, the config. */
  public static ObjectNode summary(TwoPhaseResult result) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("name", result.config().name());
    o.put("system", result.system());
    o.put("label", result.label());
    o.put("description", result.description());
    o.put("quote", quote(result));
    o.set("machine", result.machine().json());
    ObjectNode load = o.putObject("load");
    load.put("records", result.config().load().records());
    load.put("seconds", result.loadSeconds());
    load.put("recordsPerSecond", result.loadRecordsPerSecond());
    if (!Double.isNaN(result.fillSeconds())) {
      load.put("fillSeconds", result.fillSeconds());
    }
    load.put("diskComponents", result.loadedDiskComponents());
    load.put("spaceBytes", result.loadedSpaceBytes());
    load.put("liveDataBytes", result.liveDataBytes());
    load.put("verifiedKeys", result.verifiedKeys());
    load.set("gc", result.loadGc().json());
    if (result.loadProcess() != null) {
      load.set("process", result.loadProcess().json());
    }
    o.put("spaceAmplification", result.spaceAmplification());
    if (!Double.isNaN(result.meanSpaceAmplification())) {
      o.put("meanSpaceAmplification", result.meanSpaceAmplification());
    }
    if (result.lookups() != null) {
      o.set("lookups", result.lookups().json());
    }
    PhaseResult t = result.testing();
    if (t == null) {
      o.putArray("runs");
      o.set("config", TwoPhaseConfigJson.toJson(result.config()));
      return o;
    }
    ObjectNode testing = o.putObject("testing");
    testing.put("scheduler", t.scheduler());
    testing.put("maxThroughput", t.throughput());
    testing.put("durationSeconds", result.config().testing().durationSeconds());
    testing.put("warmupSeconds", result.config().testing().warmupSeconds());
    testing.put("writes", t.completed());
    stalls(testing, t);
    testing.put("maxDiskComponents", t.maxDiskComponents());
    testing.put("writeAmplification", t.writeAmplification());
    merges(testing, t);
    testing.set("ioBudgetUse", t.ioBudget().json());
    testing.set("gc", t.gc().json());
    if (!result.runs().isEmpty()) {
      PhaseResult first = result.runs().get(0);
      o.set("running", phase(first));
      o.put("writeAmplification", first.writeAmplification());
    }
    ArrayNode runs = o.putArray("runs");
    result.runs().forEach(r -> runs.add(phase(r)));
    o.set("config", TwoPhaseConfigJson.toJson(result.config()));
    return o;
  }

  /** One running phase as JSON (the shape of {@code summary.json}'s {@code running}). */
  public static ObjectNode phase(PhaseResult r) {
    ObjectNode p = MAPPER.createObjectNode();
    p.put("name", r.name());
    p.put("scheduler", r.scheduler());
    if (!Double.isNaN(r.utilization())) {
      p.put("utilization", r.utilization());
    }
    p.put("arrivalRate", r.arrivalRate());
    p.put("throughput", r.throughput());
    p.put("arrived", r.arrived());
    p.put("completed", r.completed());
    p.put("unfinished", r.unfinished());
    p.set("writeLatency", r.writeLatency().json());
    p.set("processingLatency", r.processingLatency().json());
    if (!Double.isNaN(r.arrivalLagMaxMillis())) {
      p.put("arrivalLagMaxMillis", r.arrivalLagMaxMillis());
    }
    stalls(p, r);
    p.put("maxDiskComponents", r.maxDiskComponents());
    p.put("writeAmplification", r.writeAmplification());
    merges(p, r);
    ObjectNode backlog = p.putObject("backlogAtEnd");
    backlog.put("queuedWrites", r.queueAtEnd());
    backlog.put("unfinishedWrites", r.unfinished());
    backlog.put("pendingMergeBytes", r.pendingMergeBytesAtEnd());
    p.put("spaceBytesAtEnd", r.spaceBytesAtEnd());
    if (!Double.isNaN(r.meanSpaceBytes())) {
      p.put("meanSpaceBytes", r.meanSpaceBytes());
    }
    p.set("ioBudgetUse", r.ioBudget().json());
    p.set("gc", r.gc().json());
    if (r.verdict() != null) {
      p.set("sustainable", verdictJson(r.verdict()));
    }
    if (r.queries() != null) {
      ObjectNode q = p.putObject("queries");
      q.put("kind", r.queries().kind());
      q.put("threads", r.queries().threads());
      q.put("count", r.queries().count());
      q.put("throughput", r.queries().throughput());
      q.set("latency", r.queries().latency().json());
    }
    return p;
  }

  /** A verdict as JSON: {@code verdict}, {@code reasons} and the two fitted trends. */
  public static ObjectNode verdictJson(Sustainability.Verdict v) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("verdict", v.word());
    v.reasons().forEach(o.putArray("reasons")::add);
    o.set("diskComponentsTrend", trendJson(v.components()));
    o.set("pendingMergeBytesTrend", trendJson(v.pendingMergeBytes()));
    return o;
  }

  private static ObjectNode trendJson(Trend t) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("fromSecond", t.fromSecond());
    o.put("toSecond", t.toSecond());
    o.put("slopePerSecond", t.slope());
    o.put("slopeLow95", t.slopeLow());
    o.put("slopeHigh95", t.slopeHigh());
    o.put("rise", t.rise());
    o.put("upward", t.upward());
    return o;
  }

  private static void merges(ObjectNode o, PhaseResult r) {
    ObjectNode m = o.putObject("merges");
    m.put("count", r.mergeWidths().values().stream().mapToLong(Long::longValue).sum());
    ObjectNode by = m.putObject("byInputComponents");
    r.mergeWidths().forEach((k, v) -> by.put(Integer.toString(k), v));
  }

  private static void stalls(ObjectNode o, PhaseResult r) {
    ObjectNode s = o.putObject("stalls");
    s.put("count", r.stallCount());
    s.put("seconds", r.stallSeconds());
    ObjectNode by = s.putObject("byCause");
    r.stallsByCause().forEach((cause, t) -> by.putObject(cause).put("count", t.count())
        .put("seconds", t.seconds()));
  }

  private static String markdown(TwoPhaseResult result) {
    TwoPhaseConfig c = result.config();
    StringBuilder b = new StringBuilder();
    b.append("# Two-phase report: ").append(c.name()).append(" on ").append(result.label())
        .append("\n\n");
    if (!c.description().isEmpty()) {
      b.append(c.description()).append("\n\n");
    }
    b.append("**").append(quote(result)).append("**\n\n");
    b.append("System: ").append(result.description()).append(".\n\n");
    b.append(result.machine().describe()).append("\n\n");
    if (!result.system().equals("strata")) {
      b.append(String.format(Locale.ROOT, "Budgets (mapped to the system's options,"
          + " docs/compare.md):"
              + " memory component %s x %d; I/O limit %s; force every %s.%n%n",
          c.dataset().store().memoryComponent().size(),
          c.dataset().store().memoryComponent().count(),
          c.dataset().store().io().writeRateLimit().bytes() == 0 ? "none"
              : c.dataset().store().io().writeRateLimit() + "/s",
          c.dataset().store().io().forceBytes()));
    } else {
      b.append(dataset(c));
    }
    b.append(String.format(Locale.ROOT, "Loaded %,d records in %.1f s (%,.0f records/s; %d disk"
            + " components, %.1f MiB after loading).%n%n", c.load().records(), result.loadSeconds(),
        result.loadRecordsPerSecond(), result.loadedDiskComponents(),
        result.loadedSpaceBytes() / 1048576.0));
    PhaseResult t = result.testing();
    if (t == null) {
      if (result.lookups() != null) {
        b.append(lookupTable(result.lookups()));
      }
      return b.append(gcTable(result)).toString();
    }
    return testingAndRunning(b, result, c, t);
  }

  /** The point lookups as a markdown section. */
  static String lookupTable(LookupResult l) {
    StringBuilder b = new StringBuilder("## Point lookups\n\n");
    b.append(String.format(Locale.ROOT, "Random gets of the %,d loaded keys, each checked"
            + " against its loaded value; cache %.1f MiB, loaded data %.1f MiB (%.1fx the"
            + " cache); %d s warm-up before the first run. Latency of one get in ms.%n%n",
        l.records(), l.cacheBytes() / 1048576.0, l.dataBytes() / 1048576.0, l.dataToCache(),
        l.warmupSeconds()));
    b.append("| threads | seconds | gets | gets/s | p50 ms | p99 ms | max ms | cache hit ratio |\n"
        + "|---|---|---|---|---|---|---|---|\n");
    for (LookupResult.Run r : l.runs()) {
      b.append(String.format(Locale.ROOT, "| %d | %.1f | %,d | %,.0f | %.4f | %.4f | %.3f | %s |%n",
          r.threads(), r.seconds(), r.gets(), r.getsPerSecond(), r.latency().p50(),
          r.latency().p99(), r.latency().max(), Double.isNaN(r.cacheHitRatio()) ? "unknown"
              : String.format(Locale.ROOT, "%.3f", r.cacheHitRatio())));
    }
    return b.append('\n').toString();
  }

  /**
   * The collector pauses and peak heap of every phase, as a markdown section (the rule for which
   * collectors pause is {@link GcPauseRecorder}'s).
   */
  static String gcTable(TwoPhaseResult result) {
    StringBuilder b = new StringBuilder("## Collector pauses and heap\n\n");
    MachineInfo m = result.machine();
    b.append(String.format(Locale.ROOT, "Collectors %s, maximum heap %.0f MiB, JVM options %s."
            + " Every stop-the-world pause, from JFR's jdk.GCPhasePause events, in ms"
            + " (nearest-rank percentiles; see docs/two-phase.md); peak heap is"
            + " the most heap used before any collection or at the phase's start or end.%s%n%n",
        String.join(", ", m.garbageCollectors()), m.maxHeapBytes() / 1048576.0,
        m.jvmOptions().isEmpty() ? "(none)" : "`" + String.join(" ", m.jvmOptions()) + "`",
        result.system().equals("rocksdb") ? " RocksDB keeps its memtables and block cache in"
            + " native memory, so these figures cover only the JVM side of the driver." : ""));
    b.append(GcPhase.header("phase"));
    b.append(result.loadGc().row("load"));
    if (result.testing() != null) {
      b.append(result.testing().gc().row("testing"));
    }
    for (PhaseResult r : result.runs()) {
      b.append(r.gc().row(r.name()));
    }
    return b.append('\n').toString();
  }

  private static String dataset(TwoPhaseConfig c) {
    return String.format(Locale.ROOT, "Dataset: policy `%s` %s, %d secondary index(es), %s"
            + " maintenance, %d partition(s); memory component %s x %d; I/O limit %s; force every"
            + " %s.%n%n", c.dataset().store().mergePolicy().name(),
        c.dataset().store().mergePolicy().parameters(), c.dataset().secondaryIndexes().size(),
        c.dataset().maintenance().configName(), c.dataset().partitions(),
        c.dataset().store().memoryComponent().size(),
        c.dataset().store().memoryComponent().count(),
        c.dataset().store().io().writeRateLimit().bytes() == 0 ? "none"
            : c.dataset().store().io().writeRateLimit() + "/s",
        c.dataset().store().io().forceBytes());
  }

  /**
   * The stalls of a phase by cause, in words: what each cause means and what limited it (nothing
   * when the phase did not stall; "not split by cause" for a system that does not say).
   */
  private static void stallCauses(StringBuilder b, PhaseResult r, TwoPhaseConfig c) {
    b.append(stallCauses(r.stallCount(), r.stallSeconds(), r.stallsByCause(),
        c.dataset().store().io().writeRateLimit().bytes()));
  }

  /** The paragraph {@link #stallCauses(StringBuilder, PhaseResult, TwoPhaseConfig)} writes. */
  static String stallCauses(long count, double seconds,
      java.util.Map<String, org.strata.lsm.StoreStats.StallTotals> byCause,
      long writeRateLimitBytes) {
    if (count == 0 && seconds == 0) {
      return "";
    }
    String split = StallWords.byCause(byCause);
    if (split.isEmpty()) {
      return String.format(Locale.ROOT, "Stalls: %d (%.1f s), not split by cause by this"
          + " system.%n%n", count, seconds);
    }
    StringBuilder b = new StringBuilder("Stalls by cause: ").append(split).append(".");
    String dominant = StallWords.dominant(byCause);
    if (dominant != null) {
      b.append(" Most stalled time: ").append(StallWords.explain(dominant, writeRateLimitBytes))
          .append(".");
    }
    return b.append("\n\n").toString();
  }

  private static String testingAndRunning(StringBuilder b, TwoPhaseResult result,
      TwoPhaseConfig c, PhaseResult t) {
    b.append("## Testing phase\n\n");
    b.append(String.format(Locale.ROOT, "Closed loop, %d writer(s), `%s` scheduler, %d s with"
            + " the first %d s excluded: **maximum write throughput %,.0f writes/s**. %d stalls"
            + " (%.1f s; expected here: writers that never wait for an arrival stall whenever"
            + " flushes or merges fall behind, which is how the phase finds the maximum), at most"
            + " %d disk components, write amplification %.2f. %s%n%n",
        c.testing().writers(), t.scheduler(), c.testing().durationSeconds(),
        c.testing().warmupSeconds(), t.throughput(), t.stallCount(), t.stallSeconds(),
        t.maxDiskComponents(), t.writeAmplification(), ioBudgetWords(t.ioBudget())));
    stallCauses(b, t, c);
    b.append("## Running phases\n\n");
    b.append("Open loop, constant arrivals unless noted; write latency counts from the intended"
        + " arrival (queuing + processing), processing latency from the dequeue; arrival lag is"
        + " how late the driver's generator put a write on the queue (part of its write latency:"
        + " a lag near the write maximum means the whole process stood still, not only the"
        + " store). Milliseconds.\n\n");
    b.append("| phase | scheduler | arrivals/s | completed | unfinished | write p50 | p90 | p99"
        + " | p99.9 | max | processing p99 | arrival lag max | stalls | stalled s"
        + " | max components | WA | I/O budget use |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (PhaseResult r : result.runs()) {
      Latency w = r.writeLatency();
      b.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %,d | %,d | %.2f | %.2f | %.2f |"
              + " %.2f | %.2f | %.2f | %.2f | %d | %.1f | %d | %.2f | %s |%n", r.name(),
          r.scheduler(), r.arrivalRate(), r.completed(), r.unfinished(), w.p50(), w.p90(),
          w.p99(), w.p999(), w.max(), r.processingLatency().p99(), r.arrivalLagMaxMillis(),
          r.stallCount(), r.stallSeconds(),
          r.maxDiskComponents(), r.writeAmplification(), Double.isNaN(r.ioBudget().use()) ? "-"
              : String.format(Locale.ROOT, "%.2f", r.ioBudget().use())));
    }
    for (PhaseResult r : result.runs()) {
      if (r.stallCount() > 0 || r.stallSeconds() > 0) {
        b.append("\n").append(r.name()).append(": ");
        stallCauses(b, r, c);
      }
    }
    b.append("\n### Sustainability\n\n");
    b.append("A running phase is sustainable only if its queue drained by the end of the drain,"
        + " no stall started in the second half of its arrivals, and neither disk components nor"
        + " pending merge bytes trend upward over that half (least-squares slope whose 95%"
        + " interval is above zero, with a fitted rise of at least half the range, 5% of the"
        + " mean, and 2 components or one memory component of bytes; docs/compare.md).\n\n");
    for (PhaseResult r : result.runs()) {
      b.append("- ").append(r.name()).append(": **").append(r.verdict().word()).append("**: ")
          .append(String.join("; ", r.verdict().reasons())).append("\n");
    }
    for (PhaseResult r : result.runs()) {
      if (r.queries() != null) {
        TwoPhaseConfig.Queries spec = result.config().running().queries();
        String kind = r.queries().kind().equals("secondary") ? "secondary (" + spec.index()
            + ", ranges of " + spec.selectivity() + " values)" : r.queries().kind();
        b.append(String.format(Locale.ROOT, "%nQueries during %s: %d thread(s) of %s, %,.0f/s,"
                + " p99 %.2f ms.%n", r.name(), r.queries().threads(), kind,
            r.queries().throughput(), r.queries().latency().p99()));
      }
    }
    boolean designs = false;
    for (PhaseResult r : result.runs()) {
      String table = DesignChanges.table(r.name(), r.samples());
      designs |= !table.isEmpty();
      b.append(table);
    }
    b.append('\n').append(gcTable(result));
    b.append("## Charts\n\n");
    if (designs) {
      b.append("![design of the merge policy](").append(TwoPhaseCharts.DESIGN).append(")\n\n");
    }
    b.append("![write throughput](").append(TwoPhaseCharts.THROUGHPUT).append(")\n\n");
    b.append("![disk components](").append(TwoPhaseCharts.COMPONENTS).append(")\n\n");
    b.append("![pending merge bytes](").append(TwoPhaseCharts.PENDING).append(")\n\n");
    if (!result.runs().isEmpty()) {
      b.append("![latency percentiles](").append(TwoPhaseCharts.LATENCY).append(")\n\n");
    }
    b.append("Files: `summary.json` (all figures and the configuration), `timeseries.csv` (per"
        + " second), `<phase>-write.hlog`, `<phase>-processing.hlog` and"
        + " `<phase>-arrival-lag.hlog` (HdrHistogram interval logs, one interval a second).\n");
    return b.toString();
  }
}
