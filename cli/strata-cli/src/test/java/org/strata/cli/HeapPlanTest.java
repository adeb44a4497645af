package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.strata.lsm.config.ConfigMapper;

/** The heap bin/strata plans from a command's configuration. */
class HeapPlanTest {
  private static final long GIB = 1L << 30;

  private static JsonNode json(String text) {
    return ConfigMapper.readTree(text, "test");
  }

  @Test
  void aSmallStoreGetsTheFloor() {
    // 256 KB x 2 and a 32 MB cache: 33 MiB + 256 MiB, below the 512 MiB floor.
    assertThat(HeapPlan.heapMib(json("{\"dataset\": {\"memory-component\": {\"size\": \"256KB\","
        + " \"count\": 2}, \"page-cache\": {\"size\": \"32MB\"}}}"), 24 * GIB)).isEqualTo(512);
  }

  @Test
  void theHeapFollowsTheMemoryComponentsAndThePageCache() {
    // 128 MB x 2 x 1.25 = 320 MiB, a 2 GB cache, 256 MiB more: 2,624 MiB, rounded to 64: 2,624.
    assertThat(HeapPlan.heapMib(json("{\"memory-component\": {\"size\": \"128MB\", \"count\":"
        + " 2}, \"page-cache\": {\"size\": \"2GB\"}}"), 24 * GIB)).isEqualTo(2624);
    // Three components instead of two: 480 MiB of them.
    assertThat(HeapPlan.heapMib(json("{\"memory-component\": {\"size\": \"128MB\", \"count\":"
        + " 3}, \"page-cache\": {\"size\": \"2GB\"}}"), 24 * GIB)).isEqualTo(2816);
  }

  @Test
  void missingSectionsTakeTheDefaultsAndTheLargestStoreDecides() {
    // No store section at all: one store at the defaults (64 MB x 2, 128 MB cache): 160 + 128 +
    // 256 = 544, rounded up to 576.
    assertThat(HeapPlan.heapMib(json("{\"name\": \"x\"}"), 24 * GIB)).isEqualTo(576);
    // Two stores (as in a reproduction's runs): the larger one's need, not the sum: 160 + 1,024
    // + 256 = 1,440, rounded up to 1,472.
    assertThat(HeapPlan.heapMib(json("{\"runs\": [{\"page-cache\": {\"size\": \"1GB\"}},"
        + " {\"memory-component\": {\"size\": \"8MB\"}, \"page-cache\": {\"size\": \"64MB\"}}]}"),
        24 * GIB)).isEqualTo(1472);
  }

  @Test
  void theHeapStaysWithinThreeQuartersOfTheMachine() {
    JsonNode big = json("{\"page-cache\": {\"size\": \"64GB\"}}");
    assertThat(HeapPlan.heapMib(big, 24 * GIB)).isEqualTo(18 * 1024);
    assertThat(HeapPlan.heapMib(big, GIB / 2)).as("never below the floor").isEqualTo(512);
  }

  @Test
  void theCommandLineNamesTheConfigurationWithItsOverrides(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("c.json");
    Files.writeString(file, "{\"dataset\": {\"page-cache\": {\"size\": \"64MB\"}}}");
    assertThat(HeapPlan.heapMib(HeapPlan.configuration(new String[] {"two-phase", "--config",
        file.toString(), "--set", "dataset.page-cache.size=1GB"}), 24 * GIB))
        .as("the override's 1 GB cache").isEqualTo(1472);
    Path store = dir.resolve("store");
    Files.createDirectories(store);
    Files.writeString(store.resolve("config.json"), "{\"page-cache\": {\"size\": \"3GB\"}}");
    assertThat(HeapPlan.heapMib(HeapPlan.configuration(new String[] {"load", "--dir",
        store.toString()}), 24 * GIB)).as("160 + 3,072 + 256, rounded up").isEqualTo(3520);
    assertThat(HeapPlan.configuration(new String[] {"simulate", "--policy", "binomial"})).isNull();
    assertThat(HeapPlan.configuration(new String[] {"load", "--dir", dir.resolve("new")
        .toString()})).as("a new store names no configuration").isNull();
  }

  @Test
  void anUnreadableConfigurationPrintsNothing(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.json");
    Files.writeString(file, "{ not json");
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      HeapPlan.main(new String[] {"two-phase", "--config", file.toString()});
      HeapPlan.main(new String[] {"two-phase", "--config", dir.resolve("missing.json")
          .toString()});
    } finally {
      System.setOut(out);
    }
    assertThat(captured.toString(StandardCharsets.UTF_8)).isEmpty();
  }
}
