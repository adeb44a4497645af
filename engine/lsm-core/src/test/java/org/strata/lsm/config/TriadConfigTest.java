package org.strata.lsm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.dataset.DatasetConfigJson;

/** The {@code triad} section: defaults, what it accepts, what it refuses and why. */
class TriadConfigTest {
  @Test
  void offByDefaultWithThePapersDefaults() {
    TriadConfig t = StoreConfig.defaults().triad();
    assertThat(t.mem()).isFalse();
    assertThat(t.hotSelector()).isEqualTo(HotKeySelector.TOP_K);
    assertThat(t.hotPercent()).isEqualTo(1.0);
    assertThat(t.flushThreshold()).isNull();
    assertThat(t.flushThresholdBytes(64L << 20)).isEqualTo(16L << 20);
  }

  @Test
  void readFromJsonAndWrittenBack() {
    StoreConfig c = StoreConfigJson.parse("{\"memory-component\": {\"size\": \"4MB\"},"
        + " \"triad\": {\"mem\": true, \"hot-selector\": \"above-mean\", \"hot-percent\": 2.5,"
        + " \"flush-threshold\": \"1MB\"}}", "test");
    assertThat(c.triad()).isEqualTo(new TriadConfig(true, HotKeySelector.ABOVE_MEAN, 2.5,
        ByteSize.ofBytes(1 << 20)));
    assertThat(StoreConfigJson.parse(StoreConfigJson.toJson(c), "again")).isEqualTo(c);
    StoreConfig d = StoreConfig.defaults();
    assertThat(StoreConfigJson.parse(StoreConfigJson.toJson(d), "again")).isEqualTo(d);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"triad\": {\"hot-percent\": 0}} | triad.hot-percent",
      "{\"triad\": {\"hot-percent\": 50.5}} | triad.hot-percent",
      "{\"triad\": {\"hot-selector\": \"hottest\"}} | triad.hot-selector",
      "{\"triad\": {\"mem\": \"yes\"}} | triad.mem",
      "{\"triad\": {\"mem\": 1}} | triad.mem",
      "{\"triad\": {\"flush-threshold\": \"33MB\"}} | triad.flush-threshold",
      "{\"triad\": {\"log\": \"yes\"}} | triad.log",
      "{\"triad\": {\"log\": 1}} | triad.log",
      "{\"triad\": {\"logs\": true}} | triad.logs",
      "{\"triad\": {\"hot-keys\": 0}} | triad.hot-keys",
      "{\"triad\": {\"hot-keys\": \"many\"}} | triad.hot-keys",
      "{\"memory-component\": {\"size\": \"1MB\", \"live-size\": \"2MB\"}}"
          + " | memory-component.live-size",
      "{\"memory-component\": {\"live-size\": \"1KB\"}} | memory-component.live-size",
  })
  void badValuesAreRefusedNamingTheKey(String json, String key) {
    assertThatThrownBy(() -> StoreConfigJson.parse(json, "test"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining(key);
  }

  @Test
  void theFlushThresholdIsAtMostHalfAMemoryComponent() {
    assertThatThrownBy(() -> StoreConfig.defaults()
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2))
        .withTriad(new TriadConfig(true, null, null, ByteSize.ofBytes((1 << 19) + 1))))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("triad.flush-threshold")
        .hasMessageContaining("half of memory-component.size");
    assertThat(StoreConfig.defaults()
        .withMemoryComponent(MemoryComponentConfig.of(1 << 20, 2))
        .withTriad(new TriadConfig(true, null, null, ByteSize.ofBytes(1 << 19)))
        .triad().flushThresholdBytes(1 << 20)).isEqualTo(1 << 19);
  }

  @Test
  void theExampleConfigurationReads() {
    StoreConfig c = StoreConfigJson.read(java.nio.file.Path.of("..", "..", "examples",
        "triad-mem-disk.json"));
    assertThat(c.triad().mem()).isTrue();
    assertThat(c.mergePolicy().name()).isEqualTo("triad-disk");
  }

  @Test
  void triadLogIsOffByDefaultAndSwitchesAlone() {
    assertThat(StoreConfig.defaults().triad().log()).isFalse();
    TriadConfig t = StoreConfigJson.parse("{\"triad\": {\"log\": true}}", "test").triad();
    assertThat(t.log()).isTrue();
    assertThat(t.mem()).isFalse();
    assertThat(StoreConfigJson.parse("{\"triad\": {\"mem\": true}}", "test").triad().log())
        .isFalse();
  }

  /** The named configuration {@code triad}: TRIAD-MEM, TRIAD-DISK and TRIAD-LOG together. */
  @Test
  void theTriadExampleTurnsOnAllThree() {
    StoreConfig c = StoreConfigJson.read(
        java.nio.file.Path.of("..", "..", "examples", "triad.json"));
    assertThat(c.triad().mem()).isTrue();
    assertThat(c.triad().log()).isTrue();
    assertThat(c.mergePolicy().name()).isEqualTo("triad-disk");
  }

  @Test
  void aDatasetRefusesTriadLog() {
    assertThatThrownBy(() -> DatasetConfigJson.parse("{\"triad\": {\"log\": true}}", "ds"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("triad.log")
        .hasMessageContaining("standalone");
  }

  @Test
  void aDatasetRefusesTriadMem() {
    assertThatThrownBy(() -> DatasetConfigJson.parse("{\"triad\": {\"mem\": true}}", "ds"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("triad.mem")
        .hasMessageContaining("standalone");
  }

  /**
   * K: {@code hot-keys} when set, else {@code hot-percent} of the memtable's capacity in entries,
   * the memtable being {@code live-size} when set.
   */
  @Test
  void hotKeysAndTheMemtableSizeTheHotSet() {
    StoreConfig c = StoreConfigJson.parse("{\"memory-component\": {\"size\": \"8MB\","
        + " \"live-size\": \"1MB\"}, \"triad\": {\"mem\": true, \"hot-percent\": 2}}", "t");
    assertThat(c.memoryComponent().memtableBytes()).isEqualTo(1 << 20);
    assertThat(c.triad().flushThresholdBytes(c.memoryComponent().memtableBytes()))
        .isEqualTo(1 << 18);
    // 2% of 1MB over 1KB entries: 20 keys
    assertThat(c.triad().hotKeyCount(c.memoryComponent().memtableBytes(), 1024)).isEqualTo(20);
    StoreConfig k = StoreConfigJson.parse("{\"triad\": {\"mem\": true, \"hot-keys\": 1000}}",
        "t");
    assertThat(k.triad().hotKeyCount(1 << 20, 1024)).isEqualTo(1000);
    assertThat(StoreConfigJson.parse(StoreConfigJson.toJson(c), "again")).isEqualTo(c);
    assertThat(StoreConfigJson.parse(StoreConfigJson.toJson(k), "again")).isEqualTo(k);
    assertThat(StoreConfig.defaults().memoryComponent().memtableBytes()).isEqualTo(64L << 20);
  }

  @Test
  void aDatasetRefusesALiveSize() {
    assertThatThrownBy(() -> DatasetConfigJson.parse(
        "{\"memory-component\": {\"live-size\": \"1MB\"}}", "ds"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("memory-component.live-size");
  }
}
