package org.strata.lsm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.strata.lsm.Durability;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.LogRecoveryMode;

class StoreConfigJsonTest {
  @Test
  void parsesTheDesignExampleFieldsAndRoundTrips() {
    StoreConfig c = StoreConfigJson.parse("""
        {"merge-policy": {"name": "constant", "parameters": {"num-components": 7}},
         "merge-scheduler": {"name": "single-thread"},
         "memory-component": {"size": "128MB", "count": 2},
         "io": {"write-rate-limit": "100MB", "force-bytes": "16MB", "page-size": "4KB"},
         "page-cache": {"size": "1GB"},
         "bloom-filter": {"false-positive-rate": 0.02},
         "log": {"durability": "sync", "dir": null, "group-commit-interval-ms": 5}}
        """, "test");
    assertThat(c.mergePolicy().parameters()).containsEntry("num-components", "7");
    assertThat(c.memoryComponent().size().bytes()).isEqualTo(128L << 20);
    assertThat(c.io().writeRateLimit().bytes()).isEqualTo(100L << 20);
    assertThat(c.pageCache().size().bytes()).isEqualTo(1L << 30);
    assertThat(c.bloomFilter().falsePositiveRate()).isEqualTo(0.02);
    assertThat(c.log().durability()).isEqualTo(Durability.SYNC);
    assertThat(StoreConfigJson.parse(StoreConfigJson.toJson(c), "again")).isEqualTo(c);
    assertThat(StoreConfigJson.parse("{}", "empty")).isEqualTo(StoreConfig.defaults());
  }

  @Test
  void badValuesNameTheKeyTheValueAndWhatIsAllowed() {
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"mem\": 1}", "t"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("'mem'").hasMessageContaining("memory-component");
    assertThatThrownBy(() -> StoreConfigJson.parse(
        "{\"memory-component\": {\"size\": \"12 parsecs\"}}", "t"))
        .hasMessageContaining("memory-component.size").hasMessageContaining("12 parsecs")
        .hasMessageContaining("128MB");
    assertThatThrownBy(() -> StoreConfigJson.parse(
        "{\"memory-component\": {\"count\": 0}}", "t"))
        .hasMessageContaining("memory-component.count").hasMessageContaining("1 to 16");
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"log\": {\"durability\": \"maybe\"}}", "t"))
        .hasMessageContaining("log.durability").hasMessageContaining("maybe")
        .hasMessageContaining("sync, group, none");
    assertThatThrownBy(() -> StoreConfigJson.parse(
        "{\"bloom-filter\": {\"false-positive-rate\": 1.5}}", "t"))
        .hasMessageContaining("bloom-filter.false-positive-rate").hasMessageContaining("1.5");
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"merge-policy\": {}}", "t"))
        .hasMessageContaining("merge-policy.name");
    assertThatThrownBy(() -> StoreConfigJson.parse("{not json", "cfg.json"))
        .hasMessageContaining("cfg.json").hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> StoreConfigJson.parse(
        "{\"io\": {\"write-rate-limit\": \"1KB\"}}", "t"))
        .hasMessageContaining("io.write-rate-limit").hasMessageContaining("64KB");
  }

  @Test
  void recoveryModeParsesRoundTripsAndNamesTheAllowedModes() {
    StoreConfig c = StoreConfigJson.parse("{\"log\": {\"recovery-mode\": \"point-in-time\"}}", "t");
    assertThat(c.log().recoveryMode()).isEqualTo(LogRecoveryMode.POINT_IN_TIME);
    assertThat(StoreConfigJson.parse(StoreConfigJson.toJson(c), "again")).isEqualTo(c);
    assertThat(StoreConfig.defaults().log().recoveryMode())
        .isEqualTo(LogRecoveryMode.TOLERATE_TORN_TAIL);
    assertThatThrownBy(() -> StoreConfigJson.parse(
        "{\"log\": {\"recovery-mode\": \"best-effort\"}}", "t"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("log.recovery-mode").hasMessageContaining("best-effort")
        .hasMessageContaining("tolerate-torn-tail, absolute-consistency, point-in-time,"
            + " skip-corrupted");
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"log\": {\"recovery-mode\": 1}}", "t"))
        .hasMessageContaining("log.recovery-mode");
  }

  @Test
  void bloomFilterAllocationParsesRoundTripsAndNamesTheAllowedValues() {
    StoreConfig c = StoreConfigJson.parse("{\"bloom-filter\": {\"allocation\": \"Monkey\"}}", "t");
    assertThat(c.bloomFilter().allocation()).isEqualTo(BloomFilterConfig.Allocation.MONKEY);
    assertThat(c.bloomFilter().falsePositiveRate()).isEqualTo(0.01);
    assertThat(StoreConfigJson.parse(StoreConfigJson.toJson(c), "again")).isEqualTo(c);
    assertThat(StoreConfig.defaults().bloomFilter().allocation())
        .isEqualTo(BloomFilterConfig.Allocation.UNIFORM);
    assertThatThrownBy(() -> StoreConfigJson.parse(
        "{\"bloom-filter\": {\"allocation\": \"optimal\"}}", "t"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("bloom-filter.allocation").hasMessageContaining("optimal")
        .hasMessageContaining("uniform, monkey");
  }

  @Test
  void aKeyGivenTwiceIsRejectedNamingTheKey() {
    assertThatThrownBy(() -> StoreConfigJson.parse("""
        {"memory-component": {"size": "1MB", "count": 2, "size": "64MB"}}
        """, "cfg.json"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("cfg.json").hasMessageContaining("'size'")
        .hasMessageContaining("twice");
    assertThatThrownBy(() -> StoreConfigJson.parse("""
        {"log": {"durability": "sync"}, "log": {"durability": "none"}}
        """, "cfg.json"))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("'log'");
  }

  @Test
  void aNumberTooLargeForItsTypeNamesTheSettingsRangeNotJacksons() {
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"memory-component\": {\"count\":"
        + " 4294967298}}", "c.json"))
        .isInstanceOf(org.strata.lsm.InvalidConfigurationException.class)
        .hasMessageContaining("memory-component.count")
        .hasMessageContaining("4294967298")
        .hasMessageContaining("an integer from 1 to 16")
        .hasMessageNotContaining("out of range of int");
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"log\": {\"group-commit-interval-ms\":"
        + " 99999999999999999999}}", "c.json"))
        .hasMessageContaining("an integer from 1 to 60000")
        .hasMessageNotContaining("out of range of long");
  }
}
