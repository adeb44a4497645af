package org.strata.asterixdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hyracks.algebricks.common.utils.Pair;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.engine.Plugins;

/** The rows' parameter mapping and the factories' checks, without a cluster. */
class PolicyRowTest {
  /** AsterixDB 0.9.8 accepts only these names in a dataset's merge-policy parameters. */
  private static final Set<String> ASTERIX_NAMES = Set.of("max-mergable-component-size",
      "max-tolerance-component-count", "num-components", "max-component-count",
      "min-merge-component-count", "max-merge-component-count", "size-ratio");

  @ParameterizedTest
  @EnumSource(PolicyRow.class)
  void everyRowUsesOnlyAsterixNamesAndRealStrataParameters(PolicyRow row) throws Exception {
    assertThat(ASTERIX_NAMES).containsAll(row.asterixNames());
    assertThat(Plugins.policyFactories()).containsKey(row.strataPolicy());
    assertThat(Plugins.policyFactories().get(row.strataPolicy()).parameterNames())
        .containsAll(row.mappedStrataNames());
    StrataPolicyFactory f = row.factoryClass().getDeclaredConstructor().newInstance();
    assertThat(f.getName()).isEqualTo(row.rowName());
    assertThat(f.getPropertiesNames()).isEqualTo(row.asterixNames());
    assertThat(f.row()).isSameAs(row);
  }

  @Test
  void tieringTakesSizeRatioAsAsterixDbHandsItOver() {
    StrataPolicyFactory f = new StrataPolicyFactories.Tiering();
    ExtensionSettings s = ExtensionSettings.parse(List.of(new Pair<>("policy.tiering.preemptive",
        "false")));
    assertThat(f.strataProperties(Map.of("size-ratio", "3.0"), s)).isEqualTo(
        Map.of("policy", "tiering", "size-ratio", "3", "preemptive", "false"));
    assertThat(f.create(Map.of("size-ratio", "3.0"), s)).isNotNull();
  }

  @Test
  void valuesStrataRejectsNameTheRowAndWhatIsAllowed() {
    StrataPolicyFactory f = new StrataPolicyFactories.Tiering();
    assertThatThrownBy(() -> f.create(Map.of("size-ratio", "0.5"), ExtensionSettings.DEFAULTS))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("strata-tiering").hasMessageContaining("allowed")
        .hasMessageContaining("\"size-ratio\": <size-ratio>");
    assertThatThrownBy(() -> f.create(Map.of(), ExtensionSettings.DEFAULTS))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("missing parameter(s) [size-ratio]");
    assertThatThrownBy(() -> new StrataPolicyFactories.Binomial().create(
        Map.of("num-components", "4", "size-ratio", "2.0"), ExtensionSettings.DEFAULTS))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("[size-ratio] not allowed").hasMessageContaining("strata-binomial");
  }

  @Test
  void hintsNameTheRowAndWhatItTakes() {
    String stmt = "CREATE DATASET X(T) PRIMARY KEY id WITH {\"merge-policy\": {\"name\": "
        + "\"strata-binomial\", \"parameters\": {\"size-ratio\": 2.0}}};";
    assertThat(StatementErrors.explain(stmt, List.of("ASX1079: Compilation error: Invalid "
        + "compaction policy property: size-ratio"))).hasSize(2).last().asString()
        .contains("strata-binomial", "\"num-components\": <num-components>");
    assertThat(StatementErrors.explain("", List.of("Unknown compaction policy: strata-x")))
        .last().asString().contains("strata-tiering", "strata-binomial");
    assertThat(StatementErrors.explain("", List.of("Unknown compaction policy: mine")))
        .hasSize(1);
  }
}
