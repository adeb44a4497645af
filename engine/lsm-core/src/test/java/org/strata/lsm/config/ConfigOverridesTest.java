package org.strata.lsm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.strata.lsm.InvalidConfigurationException;

class ConfigOverridesTest {
  private static JsonNode tree(String json) throws Exception {
    return new ObjectMapper().readTree(json);
  }

  @Test
  void setsNestedKeysArrayElementsAndCreatesMissingObjects() throws Exception {
    JsonNode root = tree("""
        {"dataset": {"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
                     "memory-component": {"size": "8MB"}},
         "running": {"utilizations": [0.95]},
         "systems": [{"name": "strata"}, {"name": "rocksdb", "compaction": "leveled"}]}
        """);
    ConfigOverrides.apply(root, List.of(
        "dataset.merge-policy.parameters.size-ratio=5",
        "dataset.merge-policy.parameters.preemptive=false",
        "dataset.memory-component.size=16MB",
        "dataset.memory-component.count=3",
        "running.utilizations=[0.5,0.9]",
        "systems.1.compaction=universal",
        "dataset.flow-control.write-rate=1MB",
        "load.records=1e3"));
    assertThat(root.at("/dataset/merge-policy/parameters/size-ratio").isTextual()).isTrue();
    assertThat(root.at("/dataset/merge-policy/parameters/size-ratio").asText()).isEqualTo("5");
    assertThat(root.at("/dataset/merge-policy/parameters/preemptive").asText())
        .isEqualTo("false");
    assertThat(root.at("/dataset/merge-policy/parameters/preemptive").isTextual()).isTrue();
    assertThat(root.at("/dataset/memory-component/size").asText()).isEqualTo("16MB");
    assertThat(root.at("/dataset/memory-component/count").isInt()).isTrue();
    assertThat(root.at("/running/utilizations").toString()).isEqualTo("[0.5,0.9]");
    assertThat(root.at("/systems/1/compaction").asText()).isEqualTo("universal");
    assertThat(root.at("/dataset/flow-control/write-rate").asText()).isEqualTo("1MB");
    assertThat(root.at("/load/records").isNumber()).isTrue();
  }

  @Test
  void badOverridesNameWhatIsWrong() throws Exception {
    JsonNode root = tree("{\"load\": {\"records\": 5}, \"systems\": [{}]}");
    assertThatThrownBy(() -> ConfigOverrides.apply(root, List.of("load.records")))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("key.path=value");
    assertThatThrownBy(() -> ConfigOverrides.apply(root, List.of("load.records.x=1")))
        .hasMessageContaining("'load.records' is 5, not an object or array");
    assertThatThrownBy(() -> ConfigOverrides.apply(root, List.of("systems.3.name=rocksdb")))
        .hasMessageContaining("an index of the array, 0 to 0");
    assertThatThrownBy(() -> ConfigOverrides.apply(root, List.of("load..records=1")))
        .hasMessageContaining("without empty names");
  }
}
