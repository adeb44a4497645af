package org.strata.reproduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The engine section of luo-carey's configuration: what it refuses, in one line each. */
class LuoCareyEngineConfigTest {
  private static ObjectNode quick() throws Exception {
    try (InputStream in = LuoCareyEngineConfigTest.class
        .getResourceAsStream("/reproduce/luo-carey-quick.json")) {
      return (ObjectNode) new ObjectMapper().readTree(in);
    }
  }

  private static void refused(Consumer<ObjectNode> change, String message) throws Exception {
    ObjectNode cfg = quick();
    change.accept((ObjectNode) cfg.get("engine"));
    assertThatThrownBy(() -> PaperConfigs.read(cfg, LuoCareyConfig.class, "luo-carey"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void theShippedConfigurationsRead() throws Exception {
    for (String scale : new String[] {"tiny", "quick", "paper"}) {
      try (InputStream in = LuoCareyEngineConfigTest.class
          .getResourceAsStream("/reproduce/luo-carey-" + scale + ".json")) {
        LuoCareyConfig c = PaperConfigs.read(new ObjectMapper().readTree(in),
            LuoCareyConfig.class, "luo-carey");
        assertThat(c.figure18().components()).contains("10GB", "5GB", "128MB", "64MB");
        assertThat(c.engine() == null).isEqualTo(scale.equals("tiny"));
      }
    }
  }

  @Test
  void badEngineSettingsAreNamed() throws Exception {
    refused(e -> ((ObjectNode) e.get("queries").get("leveling").get("running"))
        .putArray("utilizations").add(0.9).add(0.95), "running phases at one utilization");
    refused(e -> ((ObjectNode) e.get("queries").get("tiering").get("running").get(
        "merge-schedulers").get(1)).put("name", "single-thread"),
        "need the fair and greedy schedulers");
    refused(e -> ((ObjectNode) e.get("queries")).put("sliceSeconds", 20),
        "engine.queries.sliceSeconds");
    refused(e -> ((ObjectNode) e.get("secondary").get("eager").get("running"))
        .putArray("utilizations").add(0.85).add(0.95), "one below 0.8");
    refused(e -> ((ObjectNode) e.get("secondary").get("lazy").get("dataset"))
        .put("secondary-maintenance", "eager"), "lazy maintenance");
    refused(e -> e.put("outgrowFactor", 1.0), "engine.outgrowFactor must be above 1");
    refused(e -> e.put("outgrowChoice", " "), "engine.outgrowChoice");
    refused(e -> ((ObjectNode) e.get("secondary").get("correctness")).put("writers", 0),
        "correctness.writers must be 1 to 64");
    refused(e -> ((ObjectNode) e.get("partitionedChooseBest").get("testing"))
        .put("warmup-seconds", 100), "partitionedChooseBest");
  }
}
