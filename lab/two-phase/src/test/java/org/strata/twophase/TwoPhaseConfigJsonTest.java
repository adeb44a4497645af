package org.strata.twophase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.strata.lsm.InvalidConfigurationException;
import org.strata.lsm.config.ByteSize;
import org.strata.lsm.config.NamedPlugin;
import org.strata.lsm.dataset.DatasetConfigJson;

/** The two-phase configuration records: defaults, round trips, refusals built in code. */
class TwoPhaseConfigJsonTest {
  private static final String DATASET =
      "{\"memory-component\": {\"size\": \"8MB\"}, \"partitions\": 2}";

  @Test
  void everySectionHasItsDocumentedDefaults() {
    TwoPhaseConfig c = TwoPhaseConfigJson.parse("{\"dataset\": " + DATASET + "}", "t", "exp");
    assertThat(c.name()).isEqualTo("exp");
    assertThat(c.description()).isEmpty();
    assertThat(c.dataset()).isEqualTo(DatasetConfigJson.parse(DATASET, "d"));
    assertThat(c.load()).isEqualTo(new TwoPhaseConfig.Load(100_000L, ByteSize.ofBytes(8L << 20),
        false, 2));
    assertThat(c.records()).isEqualTo(new TwoPhaseConfig.Records(10, 122, "uniform", 0.99));
    assertThat(c.testing()).isEqualTo(new TwoPhaseConfig.Testing(7200, 1200, 1,
        new NamedPlugin("fair", Map.of()), null));
    assertThat(c.running().durationSeconds()).isEqualTo(7200);
    assertThat(c.running().drainSeconds()).isEqualTo(600);
    assertThat(c.running().schedulers()).containsExactly(c.dataset().store().mergeScheduler());
    assertThat(c.running().utilizations()).containsExactly(0.95);
    assertThat(c.running().rate()).isEqualTo(0.0);
    assertThat(c.running().bursts()).isNull();
    assertThat(c.running().queries()).isEqualTo(new TwoPhaseConfig.Queries(0, "point", 10_000,
        100, null));
    assertThat(c.chartWindowSeconds()).isEqualTo(30);
    assertThat(c.seed()).isEqualTo(1L);
  }

  @Test
  void roundTripsWithEachKindOfArrivals() {
    for (String running : List.of(
        "{\"utilizations\": [0.5, 0.9], \"merge-schedulers\": [{\"name\": \"greedy\"}]}",
        "{\"rate\": 2500.5, \"queries\": {\"threads\": 2, \"kind\": \"long-scan\"}}",
        "{\"bursts\": \"2000:10,8000:5\", \"writers\": 4, \"drain-seconds\": 0}")) {
      TwoPhaseConfig c = TwoPhaseConfigJson.parse("{\"name\": \"n\", \"description\": \"d\","
          + " \"dataset\": " + DATASET + ", \"load\": {\"records\": 5000, \"memory-component\":"
          + " \"64KB\", \"compact\": true}, \"records\": {\"distribution\": \"zipf\","
          + " \"zipf-constant\": 0.5}, \"testing\": {\"duration-seconds\": 60,"
          + " \"warmup-seconds\": 10, \"merge-policy\": {\"name\": \"constant\"}},"
          + " \"running\": " + running + ", \"seed\": -7}", "t", "x");
      String json = TwoPhaseConfigJson.toText(c);
      assertThat(TwoPhaseConfigJson.parse(json, "again", "other")).as(json).isEqualTo(c);
      assertThat(TwoPhaseConfigJson.toJson(c).get("dataset").get("partitions").asInt())
          .isEqualTo(2);
    }
  }

  @Test
  void aConfigBuiltInCodeIsRefusedWithTheMessageOfTheFile() {
    Throwable fromFile = catchThrowable(() -> TwoPhaseConfigJson.parse("{\"dataset\": {},"
        + " \"testing\": {\"duration-seconds\": 10, \"warmup-seconds\": 10}}", "t", "x"));
    Throwable fromCode = catchThrowable(() -> new TwoPhaseConfig.Testing(10, 10, null, null,
        null));
    assertThat(fromCode).isInstanceOf(InvalidConfigurationException.class)
        .hasMessage(fromFile.getMessage()).hasMessageContaining("testing.warmup-seconds: '10'");
    fromFile = catchThrowable(() -> TwoPhaseConfigJson.parse("{\"dataset\": {},"
        + " \"running\": {\"queries\": {\"kind\": \"range\"}}}", "t", "x"));
    fromCode = catchThrowable(() -> new TwoPhaseConfig.Queries(null, "range", null, null,
        null));
    assertThat(fromCode).isInstanceOf(InvalidConfigurationException.class)
        .hasMessage(fromFile.getMessage()).hasMessageContaining("running.queries.kind: 'range'");
  }

  @Test
  void queryBurstsAreReadAndABadPatternIsRefused() throws Exception {
    TwoPhaseConfig c = TwoPhaseConfigJson.parse("{\"dataset\": {}, \"running\": {\"queries\":"
        + " {\"threads\": 2, \"kind\": \"zero-result\", \"bursts\": \"500:60,20000:60\"}}}",
        "t", "x");
    assertThat(c.running().queries().bursts()).isEqualTo("500:60,20000:60");
    assertThat(c.running().queries().kind()).isEqualTo("zero-result");
    assertThatThrownBy(() -> TwoPhaseConfigJson.parse("{\"dataset\": {}, \"running\":"
        + " {\"queries\": {\"threads\": 2, \"bursts\": \"500\"}}}", "t", "x"))
        .isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("running.queries.bursts: '500'")
        .hasMessageContaining("RATE:SECONDS");
  }

  @Test
  void aNonScalarPluginParameterIsRefused() {
    // This reader once turned {"n": 2} into its text; it is refused as everywhere else.
    assertThatThrownBy(() -> TwoPhaseConfigJson.parse("{\"dataset\": {}, \"testing\":"
        + " {\"merge-scheduler\": {\"name\": \"fair\", \"parameters\": {\"threads\": {\"n\":"
        + " 2}}}}}",
        "t", "x")).isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("testing.merge-scheduler.parameters.threads")
        .hasMessageContaining("a string, number or boolean");
    assertThatThrownBy(() -> TwoPhaseConfigJson.parse("{\"dataset\": {}, \"running\":"
        + " {\"merge-schedulers\": [{\"name\": \"fair\", \"parameters\": {\"threads\": [1]}}]}}",
        "t", "x")).isInstanceOf(InvalidConfigurationException.class)
        .hasMessageContaining("running.merge-schedulers[].parameters.threads")
        .hasMessageContaining("a string, number or boolean");
  }

  @Test
  void loadWritersOutOfRangeAreRefusedNamingTheKey() {
    for (String writers : List.of("0", "65")) {
      assertThatThrownBy(() -> TwoPhaseConfigJson.parse("{\"dataset\": {}, \"load\":"
          + " {\"writers\": " + writers + "}}", "t", "x"))
          .isInstanceOf(InvalidConfigurationException.class)
          .hasMessageContaining("load.writers").hasMessageContaining(writers);
    }
    assertThat(TwoPhaseConfigJson.parse("{\"dataset\": {}, \"load\": {\"writers\": 1}}", "t",
        "x").load().writers()).isEqualTo(1);
  }
}
