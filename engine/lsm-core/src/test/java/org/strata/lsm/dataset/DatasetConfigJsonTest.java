package org.strata.lsm.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.StoreConfig;

class DatasetConfigJsonTest {
  @TempDir Path tmp;

  @Test
  void readsTheDatasetKeysAndTheStoreKeys() {
    DatasetConfig c = DatasetConfigJson.parse("""
        {"merge-policy": {"name": "tiering", "parameters": {"size-ratio": "3"}},
         "memory-component": {"size": "2MB", "count": 2},
         "secondary-indexes": [{"name": "by_field1", "field": "field1"},
                               {"name": "by_field2", "field": "field2"}],
         "secondary-maintenance": "lazy", "partitions": 3}
        """, "test");
    assertThat(c.secondaryIndexes()).containsExactly(new SecondaryIndexSpec("by_field1", "field1"),
        new SecondaryIndexSpec("by_field2", "field2"));
    assertThat(c.maintenance()).isEqualTo(SecondaryMaintenance.LAZY);
    assertThat(c.partitions()).isEqualTo(3);
    assertThat(c.store().memoryComponent().size().bytes()).isEqualTo(2L << 20);
    assertThat(c.store().mergePolicy().name()).isEqualTo("tiering");
    assertThat(DatasetConfigJson.parse(DatasetConfigJson.toJson(c), "round trip")).isEqualTo(c);
  }

  @Test
  void defaultsAreEagerOnePartitionNoSecondary() {
    DatasetConfig c = DatasetConfigJson.parse("{}", "test");
    assertThat(c).isEqualTo(DatasetConfig.of(StoreConfig.defaults()));
    assertThat(c.maintenance()).isEqualTo(SecondaryMaintenance.EAGER);
    assertThat(c.partitions()).isEqualTo(1);
  }

  @Test
  void aFieldIndexedTwiceFailsNamingIt() {
    assertThatThrownBy(() -> DatasetConfigJson.parse("""
        {"secondary-indexes": [{"name": "a", "field": "field1"}, {"name": "b", "field": "field1"}]}
        """, "test")).isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("secondary-indexes.field").hasMessageContaining("'field1'")
        .hasMessageContaining("two secondary indexes name it");
  }

  @Test
  void aKeyGivenTwiceFailsNamingIt() {
    assertThatThrownBy(() -> DatasetConfigJson.parse("""
        {"partitions": 2, "secondary-indexes": [], "partitions": 4}
        """, "ds.json")).isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("ds.json").hasMessageContaining("'partitions'")
        .hasMessageContaining("twice");
    assertThatThrownBy(() -> DatasetConfigJson.parse("""
        {"secondary-indexes": [{"name": "a", "field": "f", "name": "b"}]}
        """, "ds.json")).isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("'name'");
  }

  @Test
  void anUnknownMaintenanceModeFailsListingTheAllowedOnes() {
    assertThatThrownBy(() -> DatasetConfigJson.parse("{\"secondary-maintenance\": \"eventual\"}",
        "test")).isInstanceOf(InvalidConfigurationException.class)
        .hasMessage("secondary-maintenance: 'eventual' is not allowed; allowed: eager, lazy");
  }

  @Test
  void otherBadValuesFailClearly() {
    assertThatThrownBy(() -> DatasetConfigJson.parse("{\"partitions\": 0}", "t"))
        .hasMessageContaining("partitions: '0'").hasMessageContaining("1 to 64");
    assertThatThrownBy(() -> DatasetConfigJson.parse("{\"partitions\": \"two\"}", "t"))
        .hasMessageContaining("partitions");
    assertThatThrownBy(() -> DatasetConfigJson.parse(
        "{\"secondary-indexes\": [{\"name\": \"primary\", \"field\": \"f\"}]}", "t"))
        .hasMessageContaining("'primary'");
    assertThatThrownBy(() -> DatasetConfigJson.parse(
        "{\"secondary-indexes\": [{\"name\": \"a\", \"field\": \"f\", \"kind\": \"btree\"}]}",
        "t")).hasMessageContaining("secondary-indexes[].kind");
    assertThatThrownBy(() -> DatasetConfigJson.parse("{\"secondary-index\": []}", "t"))
        .hasMessageContaining("unknown configuration key 'secondary-index'")
        .hasMessageContaining("secondary-indexes");
    assertThatThrownBy(() -> DatasetConfigJson.parse(
        "{\"secondary-indexes\": [{\"name\": \"a\"}]}", "t"))
        .hasMessageContaining("secondary-indexes[].field");
  }

  @Test
  void aBadConfigurationFailsAtOpenAndWritesNothing() throws Exception {
    Path dir = tmp.resolve("ds");
    DatasetConfig bad = new DatasetConfig(StoreConfig.defaults().withMergePolicy(
        new org.strata.lsm.config.NamedPlugin("no-such-policy", java.util.Map.of())), List.of(),
        SecondaryMaintenance.EAGER, 1);
    assertThatThrownBy(() -> Dataset.open(dir, bad))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("merge-policy.name: 'no-such-policy'");
    assertThat(Files.exists(dir)).isFalse();
  }
}
