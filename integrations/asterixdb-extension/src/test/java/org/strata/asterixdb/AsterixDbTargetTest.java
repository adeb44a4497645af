package org.strata.asterixdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.NamedPlugin;

/** How a two-phase configuration's policy and schedulers become DDL and the extension's keys. */
class AsterixDbTargetTest {
  @Test
  void rowParametersGoToTheWithClauseTheOthersToTheSection() {
    AsterixDbTarget t = new AsterixDbTarget(new NamedPlugin("tiering",
        Map.of("size-ratio", "3", "preemptive", "false")), 8L << 20, 2, 10001);
    assertThat(t.withClause()).isEqualTo("{\"merge-policy\": {\"name\": \"strata-tiering\","
        + " \"parameters\": {\"size-ratio\": 3.0}}}");
    assertThat(t.section(new NamedPlugin("greedy", Map.of("max-concurrent-merges", "2")),
        org.strata.twophase.PhaseSetup.Kind.TESTING))
        .isEqualTo(Map.of("scheduler", "greedy", "scheduler.max-concurrent-merges", "2",
            "policy.tiering.preemptive", "false"));
    // loading runs with the extension's default scheduler
    assertThat(t.section(null, org.strata.twophase.PhaseSetup.Kind.LOAD))
        .isEqualTo(Map.of("policy.tiering.preemptive", "false"));
    // and the section the target writes is one the extension accepts
    ExtensionSettings.parse(java.util.List.of(
        new org.apache.hyracks.algebricks.common.utils.Pair<>("policy.tiering.preemptive",
            "false")));
  }

  @Test
  void policiesWithoutARowOrWithoutTheRowsParametersAreRefused() {
    assertThatThrownBy(() -> new AsterixDbTarget(new NamedPlugin("partitioned-leveling",
        Map.of()), 8L << 20, 2, 10001))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("partitioned-leveling").hasMessageContaining("tiering");
    AsterixDbTarget binomial = new AsterixDbTarget(new NamedPlugin("binomial", Map.of()),
        8L << 20, 2, 10001);
    assertThatThrownBy(binomial::withClause).isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("num-components").hasMessageContaining("strata-binomial");
    assertThatThrownBy(() -> new AsterixDbTarget(new NamedPlugin("binomial",
        Map.of("num-components", "4")), 1L << 20, 2, 10001))
        .isInstanceOf(InvalidConfigurationException.class).hasMessageContaining("4 MB");
  }

  @Test
  void theConfiguredBudgetIsAppliedAsAsterixDbsOwnThrottleSplitOverItsPartitions() {
    AsterixDbTarget t = new AsterixDbTarget(new NamedPlugin("tiering",
        Map.of("size-ratio", "3")), 8L << 20, 2, 10001, 20L << 20, 16L << 20);
    assertThat(t.ncSection(org.strata.twophase.PhaseSetup.Kind.TESTING)).isEqualTo(Map.of(
        "storage.memorycomponent.globalbudget", "8MB",
        "storage.write.rate.limit", Long.toString(10L << 20),
        "storage.disk.force.bytes", Long.toString(16L << 20)));
    // the load runs unthrottled, as for every system
    assertThat(t.ncSection(org.strata.twophase.PhaseSetup.Kind.LOAD))
        .doesNotContainKey("storage.write.rate.limit");
    assertThat(t.description()).contains("I/O limit 20971520 bytes/s in all")
        .contains("storage.write.rate.limit of 10485760 bytes/s on each of its 2 storage"
            + " partitions").contains("a force every 16777216 bytes");
    AsterixDbTarget none = new AsterixDbTarget(new NamedPlugin("tiering",
        Map.of("size-ratio", "3")), 8L << 20, 2, 10001);
    assertThat(none.ncSection(org.strata.twophase.PhaseSetup.Kind.RUNNING))
        .containsOnlyKeys("storage.memorycomponent.globalbudget");
    assertThat(none.description()).contains("no I/O limit (storage.write.rate.limit unset)");
  }

  @Test
  void asterixDbsOwnConcurrentRunsUnderItsOwnRowWithTheSameParameters() {
    NamedPlugin concurrent = new NamedPlugin("concurrent", Map.of("size-ratio", "1.2",
        "min-merge-component-count", "3", "max-merge-component-count", "10",
        "max-component-count", "30"));
    AsterixDbTarget own = new AsterixDbTarget(concurrent, 8L << 20, 2, 10001, 0, 0, true,
        AsterixDbTarget.IoBudget.STRATA);
    assertThat(own.withClause()).isEqualTo("{\"merge-policy\": {\"name\": \"concurrent\","
        + " \"parameters\": {\"size-ratio\": 1.2, \"min-merge-component-count\": 3,"
        + " \"max-merge-component-count\": 10, \"max-component-count\": 30}}}");
    assertThat(own.label()).isEqualTo("asterixdb-own-concurrent");
    assertThat(own.description()).contains("AsterixDB's own concurrent policy");
    AsterixDbTarget ours = new AsterixDbTarget(concurrent, 8L << 20, 2, 10001, 0, 0, false,
        AsterixDbTarget.IoBudget.STRATA);
    assertThat(ours.withClause()).contains("\"name\": \"strata-concurrent\"");
    assertThat(ours.label()).isEqualTo("asterixdb-concurrent");
  }

  @Test
  void anOwnBaselineIsRefusedWhereAsterixDbHasNoSuchPolicyOrTakesNoSuchParameter() {
    assertThatThrownBy(() -> new AsterixDbTarget(new NamedPlugin("tiering",
        Map.of("size-ratio", "3")), 8L << 20, 2, 10001, 0, 0, true,
        AsterixDbTarget.IoBudget.STRATA))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("tiering").hasMessageContaining("concurrent");
    assertThatThrownBy(() -> new AsterixDbTarget(new NamedPlugin("prefix",
        Map.of("max-mergable-component-size", "1000", "max-tolerance-component-count", "5",
            "pinned", "1")), 8L << 20, 2, 10001, 0, 0, true, AsterixDbTarget.IoBudget.STRATA))
        .isInstanceOf(InvalidConfigurationException.class);
  }

  @Test
  void strataBudgetGoesToEachNodeThroughTheExtensionsSectionAndNotToAsterixDbs() {
    AsterixDbTarget t = new AsterixDbTarget(new NamedPlugin("tiering",
        Map.of("size-ratio", "3")), 8L << 20, 2, 10001, 20L << 20, 16L << 20, false,
        AsterixDbTarget.IoBudget.STRATA);
    org.strata.twophase.PhaseSetup.Kind testing = org.strata.twophase.PhaseSetup.Kind.TESTING;
    assertThat(t.section(null, testing))
        .containsEntry(ExtensionSettings.WRITE_RATE_LIMIT, Long.toString(10L << 20));
    assertThat(t.section(null, org.strata.twophase.PhaseSetup.Kind.LOAD))
        .doesNotContainKey(ExtensionSettings.WRITE_RATE_LIMIT);
    assertThat(t.ncSection(testing)).doesNotContainKey("storage.write.rate.limit")
        .containsEntry("storage.disk.force.bytes", Long.toString(16L << 20));
    assertThat(t.description()).contains("Strata's budget of 10485760 bytes/s on each of its 2"
        + " node controllers");
    // and the section is one the extension accepts
    assertThat(ExtensionSettings.parse(java.util.List.of(
        new org.apache.hyracks.algebricks.common.utils.Pair<>(ExtensionSettings.WRITE_RATE_LIMIT,
            Long.toString(10L << 20)))).writeRateLimit()).isEqualTo(10L << 20);
  }
}
