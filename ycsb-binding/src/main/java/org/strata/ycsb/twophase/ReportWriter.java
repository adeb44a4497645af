package org.strata.ycsb.twophase;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

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

  /** The summary: the testing throughput, the first running phase, every phase, the config. */
  public static ObjectNode summary(TwoPhaseResult result) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("name", result.config().name());
    ObjectNode load = o.putObject("load");
    load.put("records", result.config().load().records());
    load.put("seconds", result.loadSeconds());
    load.put("diskComponents", result.loadedDiskComponents());
    PhaseResult t = result.testing();
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

  private static ObjectNode phase(PhaseResult r) {
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
    stalls(p, r);
    p.put("maxDiskComponents", r.maxDiskComponents());
    p.put("writeAmplification", r.writeAmplification());
    merges(p, r);
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
    b.append("# Two-phase report: ").append(c.name()).append("\n\n");
    if (!c.description().isEmpty()) {
      b.append(c.description()).append("\n\n");
    }
    b.append(String.format(Locale.ROOT, "Dataset: policy `%s` %s, %d secondary index(es), %s"
            + " maintenance, %d partition(s); memory component %s x %d; I/O limit %s; force every"
            + " %s.%n%n", c.dataset().store().mergePolicy().name(),
        c.dataset().store().mergePolicy().parameters(), c.dataset().secondaryIndexes().size(),
        c.dataset().maintenance().configName(), c.dataset().partitions(),
        org.strata.lsm.config.ByteSize.format(c.dataset().store().memoryComponentSize()),
        c.dataset().store().memoryComponentCount(),
        c.dataset().store().writeRateLimit() == 0 ? "none"
            : org.strata.lsm.config.ByteSize.format(c.dataset().store().writeRateLimit()) + "/s",
        org.strata.lsm.config.ByteSize.format(c.dataset().store().forceBytes())));
    b.append(String.format(Locale.ROOT, "Loaded %,d records in %.1f s (%d disk components"
            + " after loading).%n%n", c.load().records(), result.loadSeconds(),
        result.loadedDiskComponents()));
    PhaseResult t = result.testing();
    b.append("## Testing phase\n\n");
    b.append(String.format(Locale.ROOT, "Closed loop, %d writer(s), `%s` scheduler, %d s with"
            + " the first %d s excluded: **maximum write throughput %,.0f writes/s**. %d stalls"
            + " (%.1f s), at most %d disk components, write amplification %.2f.%n%n",
        c.testing().writers(), t.scheduler(), c.testing().durationSeconds(),
        c.testing().warmupSeconds(), t.throughput(), t.stallCount(), t.stallSeconds(),
        t.maxDiskComponents(), t.writeAmplification()));
    b.append("## Running phases\n\n");
    b.append("Open loop, constant arrivals unless noted; write latency counts from the intended"
        + " arrival (queuing + processing), processing latency from the dequeue. Milliseconds.\n\n");
    b.append("| phase | scheduler | arrivals/s | completed | unfinished | write p50 | p90 | p99"
        + " | p99.9 | max | processing p99 | stalls | stalled s | max components | WA |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (PhaseResult r : result.runs()) {
      Latency w = r.writeLatency();
      b.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %,d | %,d | %.2f | %.2f | %.2f |"
              + " %.2f | %.2f | %.2f | %d | %.1f | %d | %.2f |%n", r.name(), r.scheduler(),
          r.arrivalRate(), r.completed(), r.unfinished(), w.p50(), w.p90(), w.p99(), w.p999(),
          w.max(), r.processingLatency().p99(), r.stallCount(), r.stallSeconds(),
          r.maxDiskComponents(), r.writeAmplification()));
    }
    for (PhaseResult r : result.runs()) {
      if (r.queries() != null) {
        b.append(String.format(Locale.ROOT, "%nQueries during %s: %d thread(s) of %s, %,.0f/s,"
                + " p99 %.2f ms.%n", r.name(), r.queries().threads(), r.queries().kind(),
            r.queries().throughput(), r.queries().latency().p99()));
      }
    }
    b.append("\n## Charts\n\n");
    b.append("![write throughput](").append(TwoPhaseCharts.THROUGHPUT).append(")\n\n");
    b.append("![disk components](").append(TwoPhaseCharts.COMPONENTS).append(")\n\n");
    if (!result.runs().isEmpty()) {
      b.append("![latency percentiles](").append(TwoPhaseCharts.LATENCY).append(")\n\n");
    }
    b.append("Files: `summary.json` (all figures and the configuration), `timeseries.csv` (per"
        + " second), `<phase>-write.hlog` and `<phase>-processing.hlog` (HdrHistogram interval"
        + " logs, one interval a second).\n");
    return b.toString();
  }
}
