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

  @Test
  void theDeviceIsSetOnceForEveryEngineRun() throws Exception {
    LuoCareyConfig c = PaperConfigs.read(quick(), LuoCareyConfig.class, "luo-carey");
    LuoCareyConfig.Engine e = c.engine();
    for (com.fasterxml.jackson.databind.JsonNode run : java.util.List.of(e.partitioned(),
        e.queries().leveling(), e.secondary().eager())) {
      com.fasterxml.jackson.databind.JsonNode on = e.onDevice(run);
      assertThat(on.get("dataset").get("device")).isEqualTo(e.device());
      assertThat(run.get("dataset").has("device")).isFalse(); // the section's run is unchanged
      // The run binds with the device as its store's device section.
      assertThat(LuoCareyConfig.bind(on, "x", "x").dataset().store().device().name())
          .isEqualTo("sata-ssd-tenth");
    }
    assertThat(e.deviceText()).startsWith("sata-ssd-tenth (writes 45MB/s, reads 50MB/s, a force"
        + " 0 ms): The paper's");
    refused(en -> en.put("deviceChoice", " "), "engine.deviceChoice must say why");
    refused(en -> ((ObjectNode) en.get("queries").get("tiering").get("dataset"))
        .putObject("device").put("write-bandwidth", "1MB"),
        "engine.queries.tiering.dataset names a device of its own");
    refused(en -> ((ObjectNode) en.get("device")).put("write-bandwidth", "1KB"),
        "device.write-bandwidth");
    // Without a device the runs are left as they are and no choice is needed.
    ObjectNode none = quick();
    ((ObjectNode) none.get("engine")).putNull("device").putNull("deviceChoice");
    LuoCareyConfig.Engine plain = PaperConfigs.read(none, LuoCareyConfig.class, "luo-carey")
        .engine();
    assertThat(plain.onDevice(plain.partitioned())).isSameAs(plain.partitioned());
    assertThat(plain.deviceText()).isNull();
  }

  @Test
  void thePartitionSweepAndTheSecondaryQueriesAreChecked() throws Exception {
    LuoCareyConfig c = PaperConfigs.read(quick(), LuoCareyConfig.class, "luo-carey");
    assertThat(c.engine().partitionSizes().fileSizes()).containsExactly("32KB", "128KB", "2MB",
        "64MB");
    assertThat(c.engine().partitionSizes().bytes()).containsExactly(32L << 10, 128L << 10,
        2L << 20, 64L << 20);
    assertThat(c.engine().partitionSizes().choice()).contains("15%").contains("2 times");
    assertThat(c.engine().secondary().queries().selectivities()).containsExactly(1, 10, 100,
        1000);
    refused(e -> e.remove("partitionSizes"),
        "Missing creator property 'partitionSizes' (index 8)");
    refused(e -> ((ObjectNode) e.get("partitionSizes")).putArray("fileSizes").add("32KB")
        .add("2MB"), "at least three file sizes");
    refused(e -> ((ObjectNode) e.get("partitionSizes")).putArray("fileSizes").add("32KB")
        .add("2MB").add("1MB"), "positive and ascending, got [32KB, 2MB, 1MB]");
    refused(e -> ((ObjectNode) e.get("partitionSizes")).putArray("fileSizes").add("32KB")
        .add("2MB").add("lots"), "entry 'lots' is not a size");
    refused(e -> ((ObjectNode) e.get("partitionSizes")).put("choice", ""),
        "engine.partitionSizes.choice must say");
    refused(e -> ((ObjectNode) e.get("secondary")).remove("queries"),
        "Missing creator property 'queries'");
    refused(e -> ((ObjectNode) e.get("secondary").get("queries")).put("index", "by_field9"),
        "engine.secondary.queries.index 'by_field9' is not a secondary index");
    refused(e -> ((ObjectNode) e.get("secondary").get("queries")).putArray("selectivities")
        .add(10).add(1), "positive and ascending, got [10, 1]");
    refused(e -> ((ObjectNode) e.get("secondary").get("queries")).putArray("selectivities")
        .add(1).add(300_000), "at most the 200000 records");
    refused(e -> ((ObjectNode) e.get("secondary").get("queries")).put("sliceSeconds", 10),
        "must leave every selectivity a turn");
    refused(e -> ((ObjectNode) e.get("secondary").get("queries")).put("threads", 0),
        "engine.secondary.queries.threads must be 1 to 64");
    refused(e -> ((ObjectNode) e.get("secondary").get("queries")).put("choice", " "),
        "engine.secondary.queries.choice");
  }
}
