package org.strata.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.strata.lsm.InvalidConfigurationException;

/** A comparison configuration: what it binds, and every refusal names the key and the value. */
class CompareConfigJsonTest {
  private static String with(String systems) {
    return """
        {"dataset": {"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
                     "memory-component": {"size": "8MB", "count": 2}},
         "systems": %s}
        """.formatted(systems);
  }

  @Test
  void bindsEachKindOfSystemWithItsDefaults() {
    CompareConfig c = CompareConfigJson.parse(with("""
        [{"name": "strata", "merge-policy": {"name": "partitioned-leveling"},
          "merge-scheduler": {"name": "leveldb-score"},
          "testing-merge-scheduler": {"name": "leveldb-score"}},
         {"name": "rocksdb"}, {"name": "rocksdb", "compaction": "universal", "label": "u"},
         {"name": "hyracks"}]"""), "t", "x");
    assertThat(c.systems()).extracting(SystemSpec::label).containsExactly(
        "strata-partitioned-leveling", "rocksdb-leveled", "u", "hyracks-prefix");
    SystemSpec.Run strata = c.systems().get(0).targets(c.twoPhase(), false).get(0);
    assertThat(strata.config().dataset().store().mergePolicy().name())
        .isEqualTo("partitioned-leveling");
    assertThat(strata.config().testing().scheduler().name()).isEqualTo("leveldb-score");
    assertThat(strata.config().running().schedulers()).extracting(p -> p.name())
        .containsExactly("leveldb-score");
    assertThat(c.systems().get(3).targets(c.twoPhase(), false).get(0).target().description())
        .contains("max-mergable-component-size=" + (32L * (8 << 20)));
  }

  @Test
  void refusesBadSystemsNamingTheKeyTheValueAndWhatIsAllowed() {
    assertThatThrownBy(() -> CompareConfigJson.parse(with("[{\"name\": \"leveldb\"}]"), "t", "x"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("systems[0].name").hasMessageContaining("leveldb")
        .hasMessageContaining("strata, rocksdb, hyracks");
    assertThatThrownBy(() -> CompareConfigJson.parse(with(
        "[{\"name\": \"rocksdb\", \"compactoin\": \"leveled\"}]"), "t", "x"))
        .hasMessageContaining("systems[0].compactoin").hasMessageContaining("compaction");
    assertThatThrownBy(() -> CompareConfigJson.parse(with(
        "[{\"name\": \"rocksdb\", \"compaction\": \"fifo\"}]"), "t", "x"))
        .hasMessageContaining("systems[0].compaction").hasMessageContaining("'fifo'")
        .hasMessageContaining("leveled, universal");
    assertThatThrownBy(() -> CompareConfigJson.parse(with(
        "[{\"name\": \"strata\", \"merge-polcy\": {\"name\": \"tiering\"}}]"), "t", "x"))
        .hasMessageContaining("systems[0]").hasMessageContaining("merge-polcy");
    assertThatThrownBy(() -> CompareConfigJson.parse(with(
        "[{\"name\": \"strata\", \"api\": \"sql\"}]"), "t", "x"))
        .hasMessageContaining("systems[0].api").hasMessageContaining("dataset, store");
    assertThatThrownBy(() -> CompareConfigJson.parse(with(
        "[{\"name\": \"hyracks\", \"merge-policy\": {\"name\": \"tiering\"}}]"), "t", "x"))
        .hasMessageContaining("systems[0].merge-policy.name").hasMessageContaining("'tiering'")
        .hasMessageContaining("concurrent, constant, no-merge, prefix");
    assertThatThrownBy(() -> CompareConfigJson.parse(with(
        "[{\"name\": \"rocksdb\"}, {\"name\": \"rocksdb\"}]"), "t", "x"))
        .hasMessageContaining("systems[1].label").hasMessageContaining("rocksdb-leveled");
    assertThatThrownBy(() -> CompareConfigJson.parse(with("[]"), "t", "x"))
        .hasMessageContaining("systems");
    assertThatThrownBy(() -> CompareConfigJson.parse(with("[{\"name\": \"rocksdb\"}]")
        .replace("\"dataset\"", "\"runing\": {}, \"dataset\""), "t", "x"))
        .hasMessageContaining("unknown configuration key 'runing'");
  }

  @Test
  void aNonScalarPluginParameterIsRefusedInEveryPlaceAPluginAppears() {
    // Once turned into its text ("" for an object); now refused like in every other file.
    assertThatThrownBy(() -> CompareConfigJson.parse(with("[{\"name\": \"strata\","
        + " \"testing-merge-scheduler\": {\"name\": \"fair\", \"parameters\":"
        + " {\"threads\": {\"n\": 2}}}}]"), "t", "x"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("testing-merge-scheduler.parameters.threads")
        .hasMessageContaining("a string, number or boolean");
    assertThatThrownBy(() -> CompareConfigJson.parse(with("[{\"name\": \"strata\","
        + " \"merge-policy\": {\"name\": \"tiering\", \"parameters\":"
        + " {\"size-ratio\": [3]}}}]"), "t", "x"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("merge-policy.parameters.size-ratio")
        .hasMessageContaining("a string, number or boolean");
  }
}
