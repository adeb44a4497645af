package org.strata.lsm.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.strata.lsm.Durability;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.LogRecoveryMode;

/**
 * Reads and writes {@link StoreConfig} as the JSON of DESIGN section 4. Unknown keys, duplicate
 * keys, wrong types and out-of-range values fail with a message naming the key (as a dotted path),
 * the value and what is allowed. Absent keys take the defaults of {@link StoreConfig#defaults()}.
 */
public final class StoreConfigJson {
  // A key given twice is an error (which one was meant?), not "the last one wins".
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private StoreConfigJson() {}

  /** Parses a configuration file. */
  public static StoreConfig read(Path file) {
    return parse(readText(file), file.toString());
  }

  /** The text of a configuration file; a missing or unreadable file fails clearly. */
  public static String readText(Path file) {
    try {
      return Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new InvalidConfigurationException("config file " + file + " does not exist");
    } catch (IOException e) {
      throw new InvalidConfigurationException("config file " + file + " cannot be read: " + e);
    }
  }

  /** Parses configuration text; {@code source} names it in errors. */
  public static StoreConfig parse(String json, String source) {
    return parse(readTree(json, source), source, Set.of());
  }

  /**
   * Parses JSON text into a tree; invalid JSON or a key that appears twice in one object fails
   * naming the line and column (and the key). Every configuration file (store, dataset, two-phase)
   * is read through here.
   */
  public static JsonNode readTree(String json, String source) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      String what = e.getOriginalMessage();
      if (what != null && what.startsWith("Duplicate field ")) {
        throw new InvalidConfigurationException(source + ": the key "
            + what.substring("Duplicate field ".length()) + " appears twice in one object (line "
            + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()
            + "); give each key once");
      }
      throw new InvalidConfigurationException(
          source + " is not valid JSON: " + e.getOriginalMessage()
              + " (line " + e.getLocation().getLineNr() + ", column "
              + e.getLocation().getColumnNr() + ")");
    }
  }

  /** The top-level keys of a store configuration. */
  public static final Set<String> KEYS = Set.of("merge-policy", "merge-scheduler",
      "memory-component", "io", "page-cache", "bloom-filter", "log", "flow-control");

  /**
   * Parses a parsed configuration tree; {@code extraKeys} are further top-level keys the caller
   * reads itself (a dataset's), accepted here and named in the unknown-key message.
   */
  public static StoreConfig parse(JsonNode root, String source, Set<String> extraKeys) {
    if (root == null || !root.isObject()) {
      throw new InvalidConfigurationException(source + ": the configuration must be a JSON object");
    }
    StoreConfig d = StoreConfig.defaults();
    Set<String> allowed = new java.util.HashSet<>(KEYS);
    allowed.addAll(extraKeys);
    checkKeys("", root, allowed);
    NamedPlugin policy = plugin("merge-policy", root.get("merge-policy"), d.mergePolicy());
    NamedPlugin scheduler =
        plugin("merge-scheduler", root.get("merge-scheduler"), d.mergeScheduler());

    JsonNode mem = object("memory-component", root.get("memory-component"), Set.of("size", "count"));
    long memSize = size("memory-component.size", mem, "size", d.memoryComponentSize(), 4 << 10,
        1L << 40);
    int memCount = (int) integer("memory-component.count", mem, "count",
        d.memoryComponentCount(), 1, 16);

    JsonNode io = object("io", root.get("io"), Set.of("write-rate-limit", "force-bytes",
        "page-size"));
    long rate = size("io.write-rate-limit", io, "write-rate-limit", d.writeRateLimit(), 0,
        1L << 40);
    if (rate > 0 && rate < 64 << 10) {
      throw InvalidConfigurationException.of("io.write-rate-limit", text(io, "write-rate-limit"),
          "0 (unlimited) or at least 64KB per second");
    }
    long force = size("io.force-bytes", io, "force-bytes", d.forceBytes(), 0, 1L << 40);
    int page = (int) size("io.page-size", io, "page-size", d.pageSize(), 512, 1 << 20);

    JsonNode cache = object("page-cache", root.get("page-cache"), Set.of("size"));
    long cacheSize = size("page-cache.size", cache, "size", d.pageCacheSize(), 0, 1L << 40);

    JsonNode bloom = object("bloom-filter", root.get("bloom-filter"),
        Set.of("false-positive-rate"));
    double fpr = d.bloomFalsePositiveRate();
    if (bloom != null && bloom.has("false-positive-rate")) {
      JsonNode v = bloom.get("false-positive-rate");
      if (!v.isNumber() || v.asDouble() <= 0 || v.asDouble() >= 1) {
        throw InvalidConfigurationException.of("bloom-filter.false-positive-rate", v,
            "a number greater than 0 and less than 1, e.g. 0.01");
      }
      fpr = v.asDouble();
    }

    JsonNode log = object("log", root.get("log"), Set.of("durability", "dir",
        "group-commit-interval-ms", "recovery-mode"));
    Durability durability = d.durability();
    String logDir = d.logDir();
    long groupMs = d.groupCommitIntervalMillis();
    LogRecoveryMode recoveryMode = d.logRecoveryMode();
    if (log != null) {
      if (log.has("recovery-mode")) {
        JsonNode v = log.get("recovery-mode");
        if (!v.isTextual()) {
          throw InvalidConfigurationException.of("log.recovery-mode", v, LogRecoveryMode.allowed());
        }
        recoveryMode = LogRecoveryMode.parse("log.recovery-mode", v.asText());
      }
      if (log.has("durability")) {
        durability = Durability.parse("log.durability", string("log.durability",
            log.get("durability")));
      }
      if (log.has("dir") && !log.get("dir").isNull()) {
        logDir = string("log.dir", log.get("dir"));
      }
      groupMs = integer("log.group-commit-interval-ms", log, "group-commit-interval-ms", groupMs,
          1, 60_000);
    }
    JsonNode flow = object("flow-control", root.get("flow-control"), Set.of("constraint",
        "admission", "write-rate", "slowdown-at"));
    FlowControl fc = d.flowControl();
    if (flow != null) {
      String constraint = flow.has("constraint") ? string("flow-control.constraint",
          flow.get("constraint")) : fc.constraint();
      String admission = flow.has("admission") ? string("flow-control.admission",
          flow.get("admission")) : fc.admission();
      long writeRate = size("flow-control.write-rate", flow, "write-rate", fc.writeRate(), 1,
          1L << 40);
      double slowdownAt = fc.slowdownAt();
      if (flow.has("slowdown-at")) {
        JsonNode v = flow.get("slowdown-at");
        if (!v.isNumber()) {
          throw InvalidConfigurationException.of("flow-control.slowdown-at", v,
              "a fraction greater than 0 and at most 1");
        }
        slowdownAt = v.asDouble();
      }
      fc = new FlowControl(constraint, admission, writeRate, slowdownAt);
    }
    return new StoreConfig(policy, scheduler, memSize, memCount, rate, force, page, cacheSize, fpr,
        durability, logDir, groupMs, recoveryMode, fc);
  }

  /** The configuration as JSON, in the same shape {@link #parse} reads. */
  public static String toJson(StoreConfig c) {
    try {
      return MAPPER.writeValueAsString(toTree(c)) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The configuration as a JSON tree, in the same shape {@link #parse} reads. */
  public static ObjectNode toTree(StoreConfig c) {
    ObjectNode root = MAPPER.createObjectNode();
    pluginNode(root.putObject("merge-policy"), c.mergePolicy());
    pluginNode(root.putObject("merge-scheduler"), c.mergeScheduler());
    ObjectNode mem = root.putObject("memory-component");
    mem.put("size", ByteSize.format(c.memoryComponentSize()));
    mem.put("count", c.memoryComponentCount());
    ObjectNode io = root.putObject("io");
    io.put("write-rate-limit", ByteSize.format(c.writeRateLimit()));
    io.put("force-bytes", ByteSize.format(c.forceBytes()));
    io.put("page-size", ByteSize.format(c.pageSize()));
    root.putObject("page-cache").put("size", ByteSize.format(c.pageCacheSize()));
    root.putObject("bloom-filter").put("false-positive-rate", c.bloomFalsePositiveRate());
    ObjectNode log = root.putObject("log");
    log.put("durability", c.durability().configName());
    if (c.logDir() == null) {
      log.putNull("dir");
    } else {
      log.put("dir", c.logDir());
    }
    log.put("group-commit-interval-ms", c.groupCommitIntervalMillis());
    log.put("recovery-mode", c.logRecoveryMode().configName());
    ObjectNode flow = root.putObject("flow-control");
    flow.put("constraint", c.flowControl().constraint());
    flow.put("admission", c.flowControl().admission());
    flow.put("write-rate", ByteSize.format(c.flowControl().writeRate()));
    flow.put("slowdown-at", c.flowControl().slowdownAt());
    return root;
  }

  private static void pluginNode(ObjectNode node, NamedPlugin p) {
    node.put("name", p.name());
    ObjectNode params = node.putObject("parameters");
    p.parameters().forEach(params::put);
  }

  private static NamedPlugin plugin(String key, JsonNode node, NamedPlugin dflt) {
    if (node == null) {
      return dflt;
    }
    object(key, node, Set.of("name", "parameters"));
    if (!node.has("name")) {
      throw new InvalidConfigurationException(key + ".name is missing; it names the " + key);
    }
    String name = string(key + ".name", node.get("name"));
    Map<String, String> params = new LinkedHashMap<>();
    JsonNode p = node.get("parameters");
    if (p != null && !p.isNull()) {
      if (!p.isObject()) {
        throw InvalidConfigurationException.of(key + ".parameters", p,
            "an object of parameter names to values");
      }
      for (Map.Entry<String, JsonNode> e : p.properties()) {
        JsonNode v = e.getValue();
        if (!v.isValueNode() || v.isNull()) {
          throw InvalidConfigurationException.of(key + ".parameters." + e.getKey(), v,
              "a string, number or boolean");
        }
        params.put(e.getKey(), v.asText());
      }
    }
    return new NamedPlugin(name, params);
  }

  private static JsonNode object(String key, JsonNode node, Set<String> allowed) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject()) {
      throw InvalidConfigurationException.of(key, node, "an object with keys "
          + String.join(", ", List.copyOf(new java.util.TreeSet<>(allowed))));
    }
    checkKeys(key + ".", node, allowed);
    return node;
  }

  private static void checkKeys(String prefix, JsonNode node, Set<String> allowed) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw new InvalidConfigurationException("unknown configuration key '" + prefix + k
            + "'; allowed " + (prefix.isEmpty() ? "top-level keys" : "keys in " + prefix
            .substring(0, prefix.length() - 1)) + ": "
            + String.join(", ", new java.util.TreeSet<>(allowed)));
      }
    }
  }

  private static String string(String key, JsonNode v) {
    if (!v.isTextual()) {
      throw InvalidConfigurationException.of(key, v, "a string");
    }
    return v.asText();
  }

  private static String text(JsonNode obj, String field) {
    return obj.get(field).asText();
  }

  private static long size(String key, JsonNode obj, String field, long dflt, long min, long max) {
    if (obj == null || !obj.has(field) || obj.get(field).isNull()) {
      return dflt;
    }
    JsonNode v = obj.get(field);
    long bytes;
    if (v.isIntegralNumber()) {
      bytes = v.asLong();
    } else if (v.isTextual()) {
      bytes = ByteSize.parse(key, v.asText());
    } else {
      throw InvalidConfigurationException.of(key, v, "a size such as 4096, 4KB or 128MB");
    }
    if (bytes < min || bytes > max) {
      throw InvalidConfigurationException.of(key, v.asText(), "a size from " + ByteSize.format(min)
          + " to " + ByteSize.format(max));
    }
    return bytes;
  }

  private static long integer(String key, JsonNode obj, String field, long dflt, long min,
      long max) {
    if (obj == null || !obj.has(field)) {
      return dflt;
    }
    JsonNode v = obj.get(field);
    if (!v.canConvertToLong() || !v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
      throw InvalidConfigurationException.of(key, v, "an integer from " + min + " to " + max);
    }
    return v.asLong();
  }
}
