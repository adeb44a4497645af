package org.strata.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {
  @TempDir Path tmp;

  @Test
  void printsCheckpointsAsJson() throws Exception {
    CliTest.Result r = CliTest.run("simulate", "--policy", "min-latency", "--param",
        "num-components=10", "--flushes", "1000", "--checkpoints", "10,1000", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertThat(j.get("checkpoints")).hasSize(2);
    JsonNode last = j.get("checkpoints").get(1);
    assertThat(last.get("flushes").asLong()).isEqualTo(1000);
    assertThat(last.get("modelWriteAmplification").asDouble()).isCloseTo(3.64, within(0.005));
    assertThat(last.get("averageComponentCount").asDouble()).isCloseTo(8.01, within(0.005));
    assertThat(last.get("components").asInt()).isBetween(1, 10);
  }

  @Test
  void flushSizesFileRepeatsAndScalesNothing() throws Exception {
    Path sizes = tmp.resolve("sizes.txt");
    Files.writeString(sizes, "# two sizes\n4MB\n8MB\n");
    CliTest.Result r = CliTest.run("simulate", "--policy", "constant", "--flushes", "6",
        "--flush-sizes", sizes.toString(), "--param", "num-components=2", "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode c = new ObjectMapper().readTree(r.out()).get("checkpoints").get(0);
    // Flushes 4,8,4,8,4,8 MB (36 MB): the third makes 3 > k runs -> merge 16; the fifth -> merge
    // 28. Engine: (36 + 16 + 28) / 36. Model: the two merged flushes (4 MB each) count once.
    assertThat(c.get("writeAmplification").asDouble()).isCloseTo(80.0 / 36, within(1e-9));
    assertThat(c.get("modelWriteAmplification").asDouble()).isCloseTo(72.0 / 36, within(1e-9));
    assertThat(c.get("components").asInt()).isEqualTo(2);
  }

  @Test
  void badInputIsAUsageError() throws Exception {
    CliTest.Result unknown = CliTest.run("simulate", "--policy", "binomal", "--flushes", "5");
    assertThat(unknown.code()).isEqualTo(2);
    assertThat(unknown.err()).contains("binomal").contains("binomial");
    CliTest.Result badParam = CliTest.run("simulate", "--policy", "binomial", "--param", "k=3",
        "--flushes", "5");
    assertThat(badParam.code()).isEqualTo(2);
    assertThat(badParam.err()).contains("unknown parameter 'k'").contains("num-components");
    CliTest.Result badCheckpoint = CliTest.run("simulate", "--policy", "binomial", "--flushes",
        "5", "--checkpoints", "9");
    assertThat(badCheckpoint.code()).isEqualTo(2);
    Path bad = tmp.resolve("bad.txt");
    Files.writeString(bad, "4MB\nlots\n");
    CliTest.Result badFile = CliTest.run("simulate", "--policy", "binomial", "--flushes", "5",
        "--flush-sizes", bad.toString());
    assertThat(badFile.code()).isEqualTo(2);
    assertThat(badFile.err()).contains("line 2").contains("lots");
  }

  @Test
  void aPolicyThatNeedsKeysIsRefusedBeforeAnythingRuns() throws Exception {
    CliTest.Result r = CliTest.run("simulate", "--policy", "triad-disk", "--flushes", "50");
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains("merge-policy 'triad-disk' cannot run on the merge-policy"
        + " simulator: it needs partitioned runs, key ranges and key sketches, which are not"
        + " modelled there; run it on the engine with `strata two-phase`");
    assertThat(r.out()).isEmpty();
  }

  /**
   * Several policies on the same flushes in one table: each row equals that policy's own run, a
   * POLICY:KEY parameter reaches only its policy, and the chart is drawn.
   */
  @Test
  void comparesPoliciesOnTheSameFlushes() throws Exception {
    Path chart = tmp.resolve("charts/policies.png");
    CliTest.Result r = CliTest.run("simulate", "--policy", "min-latency,binomial,constant",
        "--param", "num-components=6", "--param", "constant:num-components=3", "--flushes",
        "500", "--checkpoints", "100,500", "--json", "--chart", chart.toString());
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertThat(j.get("policies")).hasSize(3);
    for (JsonNode p : j.get("policies")) {
      String expectedK = p.get("policy").asText().equals("constant") ? "3" : "6";
      assertThat(p.at("/parameters/num-components").asText()).isEqualTo(expectedK);
      JsonNode alone = new ObjectMapper().readTree(CliTest.run("simulate", "--policy",
          p.get("policy").asText(), "--param", "num-components=" + expectedK, "--flushes", "500",
          "--checkpoints", "100,500", "--json").out());
      assertThat(p.get("checkpoints")).as(p.get("policy").asText())
          .isEqualTo(alone.get("checkpoints"));
    }
    byte[] png = Files.readAllBytes(chart);
    assertThat(png[1]).isEqualTo((byte) 'P');
    CliTest.Result text = CliTest.run("simulate", "--policy", "tiering,leveling", "--flushes",
        "200");
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out()).contains(" tiering ").contains(" leveling ").contains("2 policies");
    CliTest.Result bad = CliTest.run("simulate", "--policy", "tiering,leveling", "--param",
        "binomial:num-components=3", "--flushes", "10");
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("'binomial' is not one of --policy tiering,leveling");
  }
}
