package org.strata.peers;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetConfigJson;
import org.strata.ycsb.twophase.StrataDatasetTarget;
import org.strata.ycsb.twophase.StrataStoreTarget;
import org.strata.ycsb.twophase.TwoPhaseConfig;

/**
 * {@code {"name": "strata", "label": ..., "api": "dataset" | "store", "testing-merge-scheduler":
 * {...}, ...dataset keys}}: Strata with any dataset keys ({@code merge-policy}, {@code
 * merge-scheduler}, {@code memory-component}, ...) replacing the comparison's dataset
 * configuration, through the dataset API (record codec) or {@code LsmStore.put} (the peers' raw
 * value bytes).
 *
 * @param label the label (default {@code strata-<policy>}, and {@code -<api>} when given)
 * @param api {@code dataset}, {@code store}, or null: the dataset API, and both in a load-only
 *     comparison
 * @param testingMergeScheduler the testing phase's scheduler instead of the configuration's
 * @param dataset the dataset keys to override
 */
public record StrataSystem(@JsonProperty("label") String label, @JsonProperty("api") String api,
    @JsonProperty("testing-merge-scheduler") JsonNode testingMergeScheduler,
    @JsonAnySetter Map<String, JsonNode> dataset) implements SystemSpec {

  /** The APIs a Strata entry may use. */
  public static final List<String> APIS = List.of("dataset", "store");

  public StrataSystem {
    if (api != null && !APIS.contains(api)) {
      throw new IllegalArgumentException("api: '" + api + "' is not allowed; allowed: "
          + String.join(", ", APIS));
    }
    dataset = dataset == null ? Map.of() : new LinkedHashMap<>(dataset);
  }

  @Override
  public String system() {
    return "strata";
  }

  @Override
  public String label() {
    if (label != null) {
      return label;
    }
    JsonNode p = dataset.get("merge-policy");
    String policy = p != null && p.has("name") ? p.get("name").asText() : "dataset";
    return "strata-" + policy + (api == null ? "" : "-" + api);
  }

  @Override
  public List<Run> targets(TwoPhaseConfig base, boolean loadOnly) {
    TwoPhaseConfig c = configFor(base);
    List<Run> runs = new ArrayList<>();
    List<String> apis = api != null ? List.of(api) : loadOnly ? APIS : List.of("dataset");
    String name = label != null ? label : dataset.containsKey("merge-policy") ? label()
        : "strata-" + c.dataset().store().mergePolicy().name() + (api == null ? "" : "-" + api);
    for (String a : apis) {
      String l = api == null && loadOnly ? name + "-" + a : name;
      runs.add(new Run(c, a.equals("store")
          ? new StrataStoreTarget(l, c.dataset().store(), c.load().memoryComponent())
          : new StrataDatasetTarget(l, c.dataset(), c.load().memoryComponent())));
    }
    return runs;
  }

  /** The comparison's configuration with this entry's dataset keys and testing scheduler. */
  TwoPhaseConfig configFor(TwoPhaseConfig base) {
    ObjectMapper m = new ObjectMapper();
    ObjectNode merged;
    try {
      merged = (ObjectNode) m.readTree(DatasetConfigJson.toJson(base.dataset()));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
    dataset.forEach(merged::set);
    DatasetConfig ds = DatasetConfigJson.parse(merged.toString(), "systems entry '" + label()
        + "'");
    TwoPhaseConfig.Testing t = base.testing();
    if (testingMergeScheduler != null) {
      org.strata.lsm.config.NamedPlugin s = parsePlugin(testingMergeScheduler);
      t = new TwoPhaseConfig.Testing(t.durationSeconds(), t.warmupSeconds(), t.writers(), s,
          t.policy());
    }
    TwoPhaseConfig.Running r = base.running();
    if (dataset.containsKey("merge-scheduler")) {
      r = new TwoPhaseConfig.Running(r.durationSeconds(), r.drainSeconds(), r.writers(),
          List.of(ds.store().mergeScheduler()), r.utilizations(), r.rate(), r.bursts(),
          r.queries());
    }
    return new TwoPhaseConfig(base.name(), base.description(), ds, base.load(), base.records(),
        t, r, base.chartWindowSeconds(), base.seed());
  }

  private org.strata.lsm.config.NamedPlugin parsePlugin(JsonNode n) {
    if (!n.isObject() || !n.has("name") || !n.get("name").isTextual()) {
      throw new IllegalArgumentException("testing-merge-scheduler: " + n + " is not allowed;"
          + " allowed: {\"name\": ..., \"parameters\": {...}}");
    }
    Map<String, String> params = new LinkedHashMap<>();
    JsonNode p = n.get("parameters");
    if (p != null && p.isObject()) {
      p.properties().forEach(e -> params.put(e.getKey(), e.getValue().asText()));
    }
    return new org.strata.lsm.config.NamedPlugin(n.get("name").asText(), params);
  }
}
