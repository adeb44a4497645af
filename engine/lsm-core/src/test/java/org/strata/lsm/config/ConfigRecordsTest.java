package org.strata.lsm.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.strata.lsm.Durability;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.LogRecoveryMode;
import org.strata.lsm.dataset.DatasetConfig;
import org.strata.lsm.dataset.DatasetConfigJson;
import org.strata.lsm.dataset.SecondaryIndexSpec;
import org.strata.lsm.dataset.SecondaryMaintenance;

/**
 * The configuration records on their own: a configuration built in code is refused in its
 * constructor with the message the same value in a file gets; every section's defaults; writing
 * and reading back gives the same configuration; a plug-in parameter that is not a scalar is
 * refused.
 */
class ConfigRecordsTest {

  static Stream<Arguments> badValues() {
    return Stream.of(
        Arguments.of("{\"memory-component\": {\"count\": 0}}",
            (Supplier<Object>) () -> new MemoryComponentConfig(null, 0)),
        Arguments.of("{\"memory-component\": {\"size\": 1024}}",
            (Supplier<Object>) () -> MemoryComponentConfig.of(1024, 2)),
        Arguments.of("{\"io\": {\"page-size\": 100}}",
            (Supplier<Object>) () -> IoConfig.of(0, 0, 100)),
        Arguments.of("{\"io\": {\"write-rate-limit\": \"1KB\"}}",
            (Supplier<Object>) () -> IoConfig.of(1024, 0, 4096)),
        Arguments.of("{\"page-cache\": {\"size\": \"2TB\"}}",
            (Supplier<Object>) () -> PageCacheConfig.of(2L << 40)),
        Arguments.of("{\"bloom-filter\": {\"false-positive-rate\": 1.5}}",
            (Supplier<Object>) () -> new BloomFilterConfig(1.5)),
        Arguments.of("{\"log\": {\"group-commit-interval-ms\": 0}}",
            (Supplier<Object>) () -> new LogConfig(null, null, 0L, null)),
        Arguments.of("{\"flow-control\": {\"slowdown-at\": 1.5}}",
            (Supplier<Object>) () -> new FlowControl(null, null, null, 1.5)),
        Arguments.of("{\"flow-control\": {\"write-rate\": 0}}",
            (Supplier<Object>) () -> new FlowControl(null, null, ByteSize.ofBytes(0), null)),
        Arguments.of("{\"merge-policy\": {\"parameters\": {}}}",
            (Supplier<Object>) () -> new NamedPlugin(null, Map.of())));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void aConfigBuiltInCodeIsRefusedWithTheMessageOfTheFile(String json, Supplier<Object> inCode) {
    Throwable fromFile = catchThrowable(() -> StoreConfigJson.parse(json, "t"));
    Throwable fromCode = catchThrowable(inCode::get);
    assertThat(fromFile).isInstanceOf(InvalidConfigurationException.class);
    assertThat(fromCode).isInstanceOf(InvalidConfigurationException.class);
    if (json.contains("merge-policy")) {
      // A plug-in does not know where it is; the reader puts its key under the path.
      assertThat(fromFile.getMessage()).isEqualTo("merge-policy." + fromCode.getMessage());
    } else {
      assertThat(fromCode.getMessage()).isEqualTo(fromFile.getMessage());
    }
  }

  @Test
  void aDatasetBuiltInCodeIsRefusedWithTheMessageOfTheFile() {
    Throwable fromFile = catchThrowable(() -> DatasetConfigJson.parse("{\"partitions\": 65}",
        "t"));
    Throwable fromCode = catchThrowable(() -> new DatasetConfig(StoreConfig.defaults(),
        List.of(), SecondaryMaintenance.EAGER, 65));
    assertThat(fromCode).isInstanceOf(InvalidConfigurationException.class)
        .hasMessage(fromFile.getMessage()).hasMessageContaining("partitions: '65'");
  }

  @Test
  void everySectionHasItsDocumentedDefaults() {
    StoreConfig d = StoreConfig.defaults();
    assertThat(StoreConfigJson.parse("{}", "t")).isEqualTo(d);
    assertThat(d.mergePolicy()).isEqualTo(new NamedPlugin("constant",
        Map.of("num-components", "5")));
    assertThat(d.mergeScheduler()).isEqualTo(new NamedPlugin("single-thread", Map.of()));
    assertThat(d.memoryComponent()).isEqualTo(MemoryComponentConfig.of(64L << 20, 2));
    assertThat(d.io()).isEqualTo(IoConfig.of(0, 16L << 20, 4096));
    assertThat(d.pageCache()).isEqualTo(PageCacheConfig.of(128L << 20));
    assertThat(d.bloomFilter().falsePositiveRate()).isEqualTo(0.01);
    assertThat(d.log()).isEqualTo(new LogConfig(Durability.GROUP, null, 10L,
        LogRecoveryMode.TOLERATE_TORN_TAIL));
    assertThat(d.flowControl()).isEqualTo(new FlowControl(FlowControl.Constraint.GLOBAL,
        FlowControl.Admission.ASAP, ByteSize.ofBytes(16L << 20), 0.8));
    // An empty section is its defaults, one key at a time.
    assertThat(StoreConfigJson.parse("{\"io\": {\"page-size\": \"8KB\"}}", "t").io())
        .isEqualTo(IoConfig.of(0, 16L << 20, 8192));
    assertThat(StoreConfigJson.parse("{\"log\": {}, \"flow-control\": {}, \"page-cache\": {},"
        + " \"bloom-filter\": {}, \"memory-component\": {}, \"io\": {}}", "t")).isEqualTo(d);
    DatasetConfig ds = DatasetConfigJson.parse("{}", "t");
    assertThat(ds.store()).isEqualTo(d);
    assertThat(ds.secondaryIndexes()).isEmpty();
    assertThat(ds.maintenance()).isEqualTo(SecondaryMaintenance.EAGER);
    assertThat(ds.partitions()).isEqualTo(1);
  }

  @Test
  void storeAndDatasetConfigsRoundTrip() {
    StoreConfig s = new StoreConfig(new NamedPlugin("binomial", Map.of("num-components", "7")),
        new NamedPlugin("greedy", Map.of("threads", "3")), MemoryComponentConfig.of(4L << 20, 3),
        IoConfig.of(1L << 20, 0, 512), PageCacheConfig.of(12345),
        new BloomFilterConfig(0.05),
        new LogConfig(Durability.SYNC, "elsewhere/wal", 25L, LogRecoveryMode.POINT_IN_TIME),
        new FlowControl(FlowControl.Constraint.LOCAL, FlowControl.Admission.GRADED,
            ByteSize.ofBytes(3L << 20), 0.5));
    String json = StoreConfigJson.toJson(s);
    assertThat(StoreConfigJson.parse(json, "t")).isEqualTo(s);
    assertThat(json).contains("\"size\" : \"4MB\"").contains("\"durability\" : \"sync\"")
        .contains("\"admission\" : \"graded\"").contains("\"recovery-mode\" : \"point-in-time\"");
    assertThat(StoreConfigJson.parse(StoreConfigJson.toJson(StoreConfig.defaults()), "t"))
        .isEqualTo(StoreConfig.defaults());

    DatasetConfig d = new DatasetConfig(s, List.of(new SecondaryIndexSpec("by_a", "a"),
        new SecondaryIndexSpec("by_b", "b")), SecondaryMaintenance.LAZY, 4);
    String dj = DatasetConfigJson.toJson(d);
    assertThat(DatasetConfigJson.parse(dj, "t")).isEqualTo(d);
    // The store keys sit at the top level beside the dataset's own.
    assertThat(dj).contains("\"merge-policy\"").doesNotContain("\"store\"");
  }

  @Test
  void aNonScalarPluginParameterIsRefusedInStoreAndDatasetFiles() {
    for (String value : new String[] {"{\"x\": 1}", "[1, 2]", "null"}) {
      String policy = "{\"merge-policy\": {\"name\": \"constant\", \"parameters\":"
          + " {\"num-components\": " + value + "}}}";
      assertThatThrownBy(() -> StoreConfigJson.parse(policy, "t"))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("merge-policy.parameters.num-components")
          .hasMessageContaining("a string, number or boolean");
      assertThatThrownBy(() -> DatasetConfigJson.parse(policy, "t"))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("merge-policy.parameters.num-components")
          .hasMessageContaining("a string, number or boolean");
    }
    // Scalars are kept as their text, as always.
    assertThat(StoreConfigJson.parse("{\"merge-policy\": {\"name\": \"constant\", \"parameters\":"
        + " {\"num-components\": 7, \"x\": true}}}", "t").mergePolicy().parameters())
        .containsEntry("num-components", "7").containsEntry("x", "true");
  }

  @Test
  void noSilentCoercions() {
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"memory-component\": {\"count\": \"2\"}}",
        "t")).hasMessageContaining("memory-component.count").hasMessageContaining("'2'");
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"memory-component\": {\"count\": 2.5}}",
        "t")).hasMessageContaining("memory-component.count");
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"log\": {\"durability\": 1}}", "t"))
        .hasMessageContaining("log.durability").hasMessageContaining("sync, group, none");
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"log\": {\"durability\": null}}", "t"))
        .hasMessageContaining("log.durability");
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"io\": {\"page-size\": true}}", "t"))
        .hasMessageContaining("io.page-size");
    assertThatThrownBy(() -> StoreConfigJson.parse("{\"io\": {\"page-sise\": 4096}}", "t"))
        .hasMessage("unknown configuration key 'io.page-sise'; allowed keys in io: force-bytes,"
            + " page-size, write-rate-limit");
  }

  @Test
  void theStatsDumpIntervalIsSecondsFromZeroToADay() {
    assertThat(StatsConfig.defaults().dumpInterval()).isEqualTo(600);
    assertThat(new StatsConfig(0).dumpInterval()).isZero();
    assertThatThrownBy(() -> new StatsConfig(-1))
        .isInstanceOf(org.strata.lsm.InvalidConfigurationException.class)
        .hasMessageContaining("stats.dump-interval");
    assertThatThrownBy(() -> new StatsConfig(86_401))
        .isInstanceOf(org.strata.lsm.InvalidConfigurationException.class)
        .hasMessageContaining("stats.dump-interval");
  }
}
