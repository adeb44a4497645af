package org.strata.asterixdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.hyracks.algebricks.common.utils.Pair;
import org.junit.jupiter.api.Test;
import org.strata.lsm.InvalidConfigurationException;

/** The extension section's keys: scheduler choice per dataset, node and default; policy keys. */
class ExtensionSettingsTest {
  private static ExtensionSettings parse(String... kv) {
    List<Pair<String, String>> args = new java.util.ArrayList<>();
    for (int i = 0; i < kv.length; i += 2) {
      args.add(new Pair<>(kv[i], kv[i + 1]));
    }
    return ExtensionSettings.parse(args);
  }

  @Test
  void datasetBeatsNodeBeatsDefault() {
    ExtensionSettings s = parse("enabled", "true", "scheduler", "greedy",
        "scheduler.max-concurrent-merges", "2", "node.asterix_nc2.scheduler", "single-thread",
        "dataset.ycsb.Usertable.scheduler", "fair", "dataset.ycsb.Usertable.scheduler.scope",
        "node");
    assertThat(s.schedulerFor("asterix_nc1", "ycsb", "Other"))
        .isEqualTo(Map.of("scheduler", "greedy", "max-concurrent-merges", "2"));
    assertThat(s.schedulerFor("asterix_nc2", "ycsb", "Other"))
        .isEqualTo(Map.of("scheduler", "single-thread"));
    assertThat(s.schedulerFor("asterix_nc2", "ycsb", "Usertable"))
        .isEqualTo(Map.of("scheduler", "fair", "scope", "node"));
    // AsterixDB may hand keys over in lower case: names match ignoring case
    assertThat(parse("dataset.ycsb.usertable.scheduler", "fair")
        .schedulerFor("asterix_nc1", "ycsb", "Usertable")).containsEntry("scheduler", "fair");
  }

  @Test
  void policyKeysGoToTheirPolicyOnly() {
    ExtensionSettings s = parse("policy.tiering.preemptive", "true");
    assertThat(s.policyParameters("tiering")).isEqualTo(Map.of("preemptive", "true"));
    assertThat(s.policyParameters("leveling")).isEmpty();
  }

  @Test
  void badKeysAreRefusedNamingTheKeyAndWhatIsAllowed() {
    assertThatThrownBy(() -> parse("schedular", "fair"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("schedular").hasMessageContaining("dataset.<dataverse>.<dataset>");
    assertThatThrownBy(() -> parse("scheduler", "fastest"))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("fastest");
    assertThatThrownBy(() -> parse("dataset.a.b.scheduler.scope", "rack"))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("rack")
        .hasMessageContaining("index, node");
    // size-ratio comes from the WITH clause of strata-tiering, not from the section
    assertThatThrownBy(() -> parse("policy.tiering.size-ratio", "4"))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("size-ratio")
        .hasMessageContaining("preemptive");
    assertThatThrownBy(() -> parse("policy.levelled.x", "1"))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("levelled")
        .hasMessageContaining("leveling");
  }

  @Test
  void theNodeBudgetIsASizePerSecondAndOffByDefault() {
    assertThat(parse().writeRateLimit()).isZero();
    assertThat(parse("io.write-rate-limit", "64MB").writeRateLimit()).isEqualTo(64L << 20);
    assertThatThrownBy(() -> parse("io.write-rate-limit", "fast"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("io.write-rate-limit");
    assertThatThrownBy(() -> parse("io.write-rate", "64MB"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("io.write-rate-limit");
  }
}
