package org.strata.ycsb.twophase;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.config.StoreConfigJson;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetConfigJson;
import org.strata.scheduler.des.ArrivalProcess;

/**
 * Reads a two-phase experiment configuration (docs/two-phase.md). Every key but {@code dataset}
 * has a default; unknown keys and bad values fail naming the key, the value and what is allowed.
 */
public final class TwoPhaseConfigJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private TwoPhaseConfigJson() {}

  /** Reads a configuration file; the file name (without {@code .json}) is the default name. */
  public static TwoPhaseConfig read(Path file) {
    String n = file.getFileName().toString();
    return parse(StoreConfigJson.readText(file), file.toString(),
        n.endsWith(".json") ? n.substring(0, n.length() - 5) : n);
  }

  /** Parses configuration text. */
  public static TwoPhaseConfig parse(String json, String source, String defaultName) {
    JsonNode root = StoreConfigJson.readTree(json, source);
    object("", root, Set.of("name", "description", "dataset", "load", "records", "testing",
        "running", "chart-window-seconds", "seed"));
    String description = root.has("description")
        ? text("description", root.get("description")) : "";
    String name = root.has("name") ? text("name", root.get("name")) : defaultName;
    if (!root.has("dataset")) {
      throw new InvalidConfigurationException(source + ": 'dataset' is missing; it holds the"
          + " dataset configuration (docs/datasets.md)");
    }
    DatasetConfig dataset = DatasetConfigJson.parse(root.get("dataset").toString(),
        source + " (dataset)");

    JsonNode l = object("load", root.get("load"), Set.of("records", "memory-component",
        "compact"));
    TwoPhaseConfig.Load load = new TwoPhaseConfig.Load(
        integer("load.records", l, "records", 100_000, 1, 1L << 40),
        size("load.memory-component", l, "memory-component",
            dataset.store().memoryComponent().size().bytes()),
        bool("load.compact", l, "compact", false));

    JsonNode r = object("records", root.get("records"), Set.of("fields", "field-length",
        "distribution", "zipf-constant"));
    String distribution = r != null && r.has("distribution")
        ? text("records.distribution", r.get("distribution")) : "uniform";
    if (!distribution.equals("uniform") && !distribution.equals("zipf")) {
      throw InvalidConfigurationException.of("records.distribution", distribution,
          "uniform, zipf");
    }
    double zipf = r != null && r.has("zipf-constant")
        ? number("records.zipf-constant", r.get("zipf-constant")) : 0.99;
    if (!(zipf > 0 && zipf < 1)) {
      throw InvalidConfigurationException.of("records.zipf-constant", zipf,
          "a number above 0 and below 1 (YCSB's default 0.99)");
    }
    TwoPhaseConfig.Records records = new TwoPhaseConfig.Records(
        (int) integer("records.fields", r, "fields", 10, 3, 100),
        (int) integer("records.field-length", r, "field-length", 122, 1, 1 << 20),
        distribution, zipf);

    JsonNode t = object("testing", root.get("testing"), Set.of("duration-seconds",
        "warmup-seconds", "writers", "merge-scheduler", "merge-policy"));
    int tDuration = (int) integer("testing.duration-seconds", t, "duration-seconds", 7200, 2,
        1 << 30);
    int tWarmup = (int) integer("testing.warmup-seconds", t, "warmup-seconds", 1200, 0,
        1 << 30);
    if (tWarmup >= tDuration) {
      throw InvalidConfigurationException.of("testing.warmup-seconds", tWarmup,
          "less than testing.duration-seconds (" + tDuration + ")");
    }
    TwoPhaseConfig.Testing testing = new TwoPhaseConfig.Testing(tDuration, tWarmup,
        (int) integer("testing.writers", t, "writers", 1, 1, 256),
        plugin("testing.merge-scheduler", t == null ? null : t.get("merge-scheduler"),
            new NamedPlugin("fair", Map.of())),
        plugin("testing.merge-policy", t == null ? null : t.get("merge-policy"), null));

    JsonNode u = object("running", root.get("running"), Set.of("duration-seconds",
        "drain-seconds", "writers", "merge-schedulers", "utilizations", "rate", "bursts",
        "queries"));
    List<NamedPlugin> schedulers = new ArrayList<>();
    JsonNode ss = u == null ? null : u.get("merge-schedulers");
    if (ss == null || ss.isNull()) {
      schedulers.add(dataset.store().mergeScheduler());
    } else {
      if (!ss.isArray() || ss.isEmpty()) {
        throw InvalidConfigurationException.of("running.merge-schedulers", ss,
            "a non-empty array of {\"name\": ..., \"parameters\": {...}}");
      }
      for (JsonNode n : ss) {
        schedulers.add(plugin("running.merge-schedulers[]", n, null));
      }
    }
    List<Double> utilizations = new ArrayList<>();
    double rate = u != null && u.has("rate") ? number("running.rate", u.get("rate")) : 0;
    String bursts = u != null && u.has("bursts") && !u.get("bursts").isNull()
        ? text("running.bursts", u.get("bursts")) : null;
    JsonNode us = u == null ? null : u.get("utilizations");
    if (us != null && !us.isNull()) {
      if (!us.isArray() || us.isEmpty()) {
        throw InvalidConfigurationException.of("running.utilizations", us,
            "a non-empty array of fractions, e.g. [0.8, 0.9, 0.95]");
      }
      for (JsonNode n : us) {
        double v = number("running.utilizations[]", n);
        if (!(v > 0 && v <= 2)) {
          throw InvalidConfigurationException.of("running.utilizations[]", v,
              "a fraction of the testing throughput above 0 and at most 2");
        }
        utilizations.add(v);
      }
    }
    int ways = (utilizations.isEmpty() ? 0 : 1) + (rate > 0 ? 1 : 0) + (bursts != null ? 1 : 0);
    if (ways > 1) {
      throw new InvalidConfigurationException("running: give one of utilizations, rate or"
          + " bursts, not several");
    }
    if (rate < 0) {
      throw InvalidConfigurationException.of("running.rate", rate, "writes per second above 0");
    }
    if (bursts != null) {
      try {
        ArrivalProcess.Burst.parseAll(bursts);
      } catch (IllegalArgumentException e) {
        throw InvalidConfigurationException.of("running.bursts", bursts,
            "RATE:SECONDS[,RATE:SECONDS...], e.g. 2000:1500,8000:300 (" + e.getMessage() + ")");
      }
    }
    if (ways == 0) {
      utilizations.add(0.95);
    }
    JsonNode q = object("running.queries", u == null ? null : u.get("queries"),
        Set.of("threads", "kind", "long-scan-length"));
    String kind = q != null && q.has("kind") ? text("running.queries.kind", q.get("kind"))
        : "point";
    if (!Set.of("point", "short-scan", "long-scan").contains(kind)) {
      throw InvalidConfigurationException.of("running.queries.kind", kind,
          "point, short-scan, long-scan");
    }
    TwoPhaseConfig.Queries queries = new TwoPhaseConfig.Queries(
        (int) integer("running.queries.threads", q, "threads", 0, 0, 256), kind,
        (int) integer("running.queries.long-scan-length", q, "long-scan-length", 10_000, 1,
            10_000_000));
    TwoPhaseConfig.Running running = new TwoPhaseConfig.Running(
        (int) integer("running.duration-seconds", u, "duration-seconds", 7200, 1, 1 << 30),
        (int) integer("running.drain-seconds", u, "drain-seconds", 600, 0, 1 << 30),
        (int) integer("running.writers", u, "writers", 1, 1, 256), List.copyOf(schedulers),
        List.copyOf(utilizations), rate, bursts, queries);
    return new TwoPhaseConfig(name, description, dataset, load, records, testing, running,
        (int) integer("chart-window-seconds", root, "chart-window-seconds", 30, 1, 3600),
        integer("seed", root, "seed", 1, Long.MIN_VALUE, Long.MAX_VALUE));
  }

  /** The configuration as JSON (the dataset as its saved form), for summary.json. */
  public static ObjectNode toJson(TwoPhaseConfig c) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("name", c.name());
    o.put("description", c.description());
    try {
      o.set("dataset", MAPPER.readTree(DatasetConfigJson.toJson(c.dataset())));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    ObjectNode l = o.putObject("load");
    l.put("records", c.load().records());
    l.put("memory-component", ByteSize.format(c.load().memoryComponent()));
    l.put("compact", c.load().compact());
    ObjectNode r = o.putObject("records");
    r.put("fields", c.records().fields());
    r.put("field-length", c.records().fieldLength());
    r.put("distribution", c.records().distribution());
    r.put("zipf-constant", c.records().zipfConstant());
    ObjectNode t = o.putObject("testing");
    t.put("duration-seconds", c.testing().durationSeconds());
    t.put("warmup-seconds", c.testing().warmupSeconds());
    t.put("writers", c.testing().writers());
    t.set("merge-scheduler", pluginJson(c.testing().scheduler()));
    if (c.testing().policy() != null) {
      t.set("merge-policy", pluginJson(c.testing().policy()));
    }
    ObjectNode u = o.putObject("running");
    u.put("duration-seconds", c.running().durationSeconds());
    u.put("drain-seconds", c.running().drainSeconds());
    u.put("writers", c.running().writers());
    ArrayNode ss = u.putArray("merge-schedulers");
    c.running().schedulers().forEach(p -> ss.add(pluginJson(p)));
    if (!c.running().utilizations().isEmpty()) {
      ArrayNode us = u.putArray("utilizations");
      c.running().utilizations().forEach(us::add);
    }
    if (c.running().rate() > 0) {
      u.put("rate", c.running().rate());
    }
    if (c.running().bursts() != null) {
      u.put("bursts", c.running().bursts());
    }
    ObjectNode q = u.putObject("queries");
    q.put("threads", c.running().queries().threads());
    q.put("kind", c.running().queries().kind());
    q.put("long-scan-length", c.running().queries().longScanLength());
    o.put("chart-window-seconds", c.chartWindowSeconds());
    o.put("seed", c.seed());
    return o;
  }

  private static ObjectNode pluginJson(NamedPlugin p) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("name", p.name());
    ObjectNode params = n.putObject("parameters");
    p.parameters().forEach(params::put);
    return n;
  }

  private static JsonNode object(String key, JsonNode node, Set<String> allowed) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw InvalidConfigurationException.of(key.isEmpty() ? "the configuration" : key, node,
          "an object with keys " + String.join(", ", new TreeSet<>(allowed)));
    }
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw new InvalidConfigurationException("unknown configuration key '"
            + (key.isEmpty() ? "" : key + ".") + k + "'; allowed "
            + (key.isEmpty() ? "top-level keys" : "keys in " + key) + ": "
            + String.join(", ", new TreeSet<>(allowed)));
      }
    }
    return node;
  }

  private static NamedPlugin plugin(String key, JsonNode node, NamedPlugin dflt) {
    if (node == null || node.isNull()) {
      return dflt;
    }
    object(key, node, Set.of("name", "parameters"));
    if (!node.has("name")) {
      throw new InvalidConfigurationException(key + ".name is missing");
    }
    Map<String, String> params = new LinkedHashMap<>();
    JsonNode p = node.get("parameters");
    if (p != null && !p.isNull()) {
      if (!p.isObject()) {
        throw InvalidConfigurationException.of(key + ".parameters", p,
            "an object of parameter names to values");
      }
      p.properties().forEach(e -> params.put(e.getKey(), e.getValue().asText()));
    }
    return new NamedPlugin(text(key + ".name", node.get("name")), params);
  }

  private static String text(String key, JsonNode v) {
    if (v == null || !v.isTextual()) {
      throw InvalidConfigurationException.of(key, v, "a string");
    }
    return v.asText();
  }

  private static double number(String key, JsonNode v) {
    if (v == null || !v.isNumber()) {
      throw InvalidConfigurationException.of(key, v, "a number");
    }
    return v.asDouble();
  }

  private static boolean bool(String key, JsonNode obj, String field, boolean dflt) {
    if (obj == null || !obj.has(field)) {
      return dflt;
    }
    JsonNode v = obj.get(field);
    if (!v.isBoolean()) {
      throw InvalidConfigurationException.of(key, v, "true or false");
    }
    return v.asBoolean();
  }

  private static long integer(String key, JsonNode obj, String field, long dflt, long min,
      long max) {
    if (obj == null || !obj.has(field)) {
      return dflt;
    }
    JsonNode v = obj.get(field);
    if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min
        || v.asLong() > max) {
      throw InvalidConfigurationException.of(key, v, "an integer from " + min + " to " + max);
    }
    return v.asLong();
  }

  private static long size(String key, JsonNode obj, String field, long dflt) {
    if (obj == null || !obj.has(field)) {
      return dflt;
    }
    JsonNode v = obj.get(field);
    long s = v.isIntegralNumber() ? v.asLong() : ByteSize.parse(key, v.asText());
    if (s < 4096) {
      throw InvalidConfigurationException.of(key, v, "at least 4KB");
    }
    return s;
  }
}
