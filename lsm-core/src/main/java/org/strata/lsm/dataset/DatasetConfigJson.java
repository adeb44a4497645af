package org.strata.lsm.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.StoreConfig;
import org.strata.lsm.config.StoreConfigJson;

/**
 * Reads and writes a dataset configuration: a store configuration (DESIGN section 4) plus {@code
 * secondary-indexes}, {@code secondary-maintenance} and {@code partitions}.
 */
public final class DatasetConfigJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Set<String> DATASET_KEYS = Set.of("secondary-indexes",
      "secondary-maintenance", "partitions");

  private DatasetConfigJson() {}

  /** Parses a configuration file. */
  public static DatasetConfig read(Path file) {
    return parse(StoreConfigJson.readText(file), file.toString());
  }

  /** Parses configuration text; {@code source} names it in errors. */
  public static DatasetConfig parse(String json, String source) {
    JsonNode root = StoreConfigJson.readTree(json, source);
    StoreConfig store = StoreConfigJson.parse(root, source, DATASET_KEYS);
    List<SecondaryIndexSpec> secondaries = new ArrayList<>();
    JsonNode list = root.get("secondary-indexes");
    if (list != null && !list.isNull()) {
      if (!list.isArray()) {
        throw InvalidConfigurationException.of("secondary-indexes", list,
            "an array of {\"name\": ..., \"field\": ...}");
      }
      for (JsonNode n : list) {
        if (!n.isObject()) {
          throw InvalidConfigurationException.of("secondary-indexes[]", n,
              "an object {\"name\": ..., \"field\": ...}");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
          String k = it.next();
          if (!k.equals("name") && !k.equals("field")) {
            throw new InvalidConfigurationException("unknown configuration key"
                + " 'secondary-indexes[]." + k + "'; allowed keys: field, name");
          }
        }
        secondaries.add(new SecondaryIndexSpec(text(n, "name"), text(n, "field")));
      }
    }
    SecondaryMaintenance maintenance = SecondaryMaintenance.EAGER;
    JsonNode m = root.get("secondary-maintenance");
    if (m != null && !m.isNull()) {
      if (!m.isTextual()) {
        throw InvalidConfigurationException.of("secondary-maintenance", m, "eager, lazy");
      }
      maintenance = SecondaryMaintenance.parse("secondary-maintenance", m.asText());
    }
    int partitions = 1;
    JsonNode p = root.get("partitions");
    if (p != null && !p.isNull()) {
      if (!p.canConvertToInt() || !p.isIntegralNumber()) {
        throw InvalidConfigurationException.of("partitions", p,
            "an integer from 1 to " + DatasetConfig.MAX_PARTITIONS);
      }
      partitions = p.asInt();
    }
    return new DatasetConfig(store, secondaries, maintenance, partitions);
  }

  private static String text(JsonNode obj, String field) {
    JsonNode v = obj.get(field);
    if (v == null || !v.isTextual()) {
      throw InvalidConfigurationException.of("secondary-indexes[]." + field, v,
          field.equals("name") ? "the index name, a string" : "the indexed field, a string");
    }
    return v.asText();
  }

  /** The configuration as JSON, in the shape {@link #parse} reads. */
  public static String toJson(DatasetConfig c) {
    ObjectNode root = StoreConfigJson.toTree(c.store());
    ArrayNode list = root.putArray("secondary-indexes");
    for (SecondaryIndexSpec s : c.secondaryIndexes()) {
      list.addObject().put("name", s.name()).put("field", s.field());
    }
    root.put("secondary-maintenance", c.maintenance().configName());
    root.put("partitions", c.partitions());
    try {
      return MAPPER.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
