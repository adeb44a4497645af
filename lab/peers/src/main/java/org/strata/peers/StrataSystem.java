package org.strata.peers;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.strata.lsm.config.ConfigMapper;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.twophase.StrataDatasetTarget;
import org.strata.twophase.StrataStoreTarget;
import org.strata.twophase.TwoPhaseConfig;

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
          ? new StrataStoreTarget(l, c.dataset().store(), c.load().memoryComponent().bytes())
          : new StrataDatasetTarget(l, c.dataset(), c.load().memoryComponent().bytes())));
    }
    return runs;
  }

  /** The comparison's configuration with this entry's dataset keys and testing scheduler. */
  TwoPhaseConfig configFor(TwoPhaseConfig base) {
    ObjectNode merged = ConfigMapper.toTree(base.dataset());
    dataset.forEach(merged::set);
    String source = "systems entry '" + label() + "'";
    DatasetConfig ds = ConfigMapper.bind(merged, source, source, "", DatasetConfig.class);
    TwoPhaseConfig.Testing t = base.testing();
    if (testingMergeScheduler != null) {
      NamedPlugin s = ConfigMapper.bind(testingMergeScheduler, source, source,
          "testing-merge-scheduler", NamedPlugin.class);
      t = new TwoPhaseConfig.Testing(t.durationSeconds(), t.warmupSeconds(), t.writers(), s,
          t.policy());
    }
    TwoPhaseConfig.Running r = base.running();
    if (dataset.containsKey("merge-scheduler")) {
      r = r.withSchedulers(List.of(ds.store().mergeScheduler()));
    }
    return new TwoPhaseConfig(base.name(), base.description(), ds, base.load(), base.records(),
        t, r, base.chartWindowSeconds(), base.seed());
  }
}
